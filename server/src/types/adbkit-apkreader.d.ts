/** The parts of @devicefarmer/adbkit-apkreader (plain JavaScript, no types of its own) that
 * server/src/packages/apk-version.ts uses, as its README and source describe them. */
declare module '@devicefarmer/adbkit-apkreader' {
  import type { Readable } from 'node:stream';

  export default class ApkReader {
    static readonly MANIFEST: 'AndroidManifest.xml';
    /** Opens nothing yet: the zip is opened by each read, and closed when it ends. */
    static open(path: string): Promise<ApkReader>;
    /** Finds the entry through the zip's central directory and streams only that entry. */
    usingFileStream<T>(path: string, action: (stream: Readable) => Promise<T>): Promise<T>;
  }
}

declare module '@devicefarmer/adbkit-apkreader/lib/apkreader/parser/manifest.js' {
  /** Attribute values by name: numbers for integers, strings for strings, and
   * "resourceId:0x…" for references to resources. */
  export interface ParsedManifest {
    package?: unknown;
    versionCode?: unknown;
    versionName?: unknown;
  }

  export default class ManifestParser {
    constructor(buffer: Buffer);
    parse(): ParsedManifest;
  }
}
