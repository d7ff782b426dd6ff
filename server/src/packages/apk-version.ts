/**
 * The version an APK installs, read from its binary AndroidManifest.xml, so that the operator
 * does not have to type it (docs/releases.md#apk-versions).
 *
 * @devicefarmer/adbkit-apkreader finds the manifest through the zip's central directory (yauzl,
 * reading at offsets through a file descriptor) and inflates that one entry: a 300 MB APK costs
 * a few kilobytes of reads. Its binary XML parser trusts the chunk sizes in the file, and a chunk
 * that claims a size of 0 sends it round the same chunk forever; so the manifest is read here,
 * with a size limit, its chunk chain checked, and only then handed to the parser.
 */
import type { Readable } from 'node:stream';
import type ApkReaderModule from '@devicefarmer/adbkit-apkreader';
import type ManifestParser from '@devicefarmer/adbkit-apkreader/lib/apkreader/parser/manifest.js';
import { lazy } from '../lib/lazy.js';

/** Loaded at the first APK read, not at start (lib/lazy.ts). */
const loadApkReader = lazy<typeof ApkReaderModule>('@devicefarmer/adbkit-apkreader');
const loadManifestParser = lazy<typeof ManifestParser>(
  '@devicefarmer/adbkit-apkreader/lib/apkreader/parser/manifest.js',
);

export interface ApkVersion {
  /** android:versionName, what people read ("5.1.0"). */
  versionName: string;
  /** android:versionCode, the number Android compares to decide what is newer. */
  versionCode: number;
  packageName: string;
}

/** An APK whose version cannot be read; the message names the file and what is wrong. */
export class ApkVersionError extends Error {
  override name = 'ApkVersionError';
}

/** Far above any real manifest (the largest apps' are a few hundred kilobytes), far below a
 * zip bomb. */
const maxManifestBytes = 8 * 1024 * 1024;
const xmlChunkType = 0x0003;
const chunkHeaderBytes = 8;

export async function readApkVersion(path: string): Promise<ApkVersion> {
  const manifest = await readManifestEntry(path);
  checkChunks(path, manifest);
  let parsed: ReturnType<ManifestParser['parse']>;
  try {
    parsed = new (loadManifestParser())(manifest).parse();
  } catch (error) {
    throw new ApkVersionError(`${path} has a corrupt AndroidManifest.xml: ${messageOf(error)}`);
  }
  return {
    versionName: versionNameOf(path, parsed.versionName),
    versionCode: versionCodeOf(path, parsed.versionCode),
    packageName: packageNameOf(path, parsed.package),
  };
}

async function readManifestEntry(path: string): Promise<Buffer> {
  try {
    const ApkReader = loadApkReader();
    const reader = await ApkReader.open(path);
    return await reader.usingFileStream(ApkReader.MANIFEST, (stream) => readAtMost(path, stream));
  } catch (error) {
    if (error instanceof ApkVersionError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') {
      throw new ApkVersionError(`cannot read ${path}: ${messageOf(error)}`);
    }
    // The library's own words when the zip has no such entry.
    if (/does not contain/.test(messageOf(error))) {
      throw new ApkVersionError(`${path} has no AndroidManifest.xml: it is a zip, but not an APK`);
    }
    throw new ApkVersionError(`${path} is not a readable APK (a zip file): ${messageOf(error)}`);
  }
}

function readAtMost(path: string, stream: Readable): Promise<Buffer> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let total = 0;
    stream.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxManifestBytes) {
        stream.destroy();
        fail(new ApkVersionError(`${path}: its AndroidManifest.xml is larger than ${maxManifestBytes} bytes`));
      } else chunks.push(chunk);
    });
    stream.once('error', fail);
    stream.once('end', () => done(Buffer.concat(chunks, total)));
  });
}

/** Walks the chunks of the XML document: each must be at least a header long and end inside
 * the file, so that the parser, which steps from chunk to chunk by their sizes, always moves on
 * and stays inside the buffer. */
function checkChunks(path: string, manifest: Buffer): void {
  const corrupt = (why: string) => new ApkVersionError(`${path} has a corrupt AndroidManifest.xml: ${why}`);
  if (manifest.length < chunkHeaderBytes || manifest.readUInt16LE(0) !== xmlChunkType) {
    throw corrupt('it is not Android binary XML');
  }
  let offset = manifest.readUInt16LE(2);
  while (offset < manifest.length) {
    if (offset + chunkHeaderBytes > manifest.length) throw corrupt(`a chunk header is cut at byte ${offset}`);
    const headerSize = manifest.readUInt16LE(offset + 2);
    const size = manifest.readUInt32LE(offset + 4);
    if (headerSize < chunkHeaderBytes || size < headerSize || offset + size > manifest.length) {
      throw corrupt(`the chunk at byte ${offset} claims ${size} bytes`);
    }
    offset += size;
  }
}

function versionNameOf(path: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ApkVersionError(`${path}: its manifest has no android:versionName`);
  }
  // A reference to a string resource (android:versionName="@string/…") would need
  // resources.arsc read and resolved; builds write the text itself, so this is only reported.
  if (/^resourceId:0x[0-9a-f]+$/.test(value)) {
    throw new ApkVersionError(`${path}: its android:versionName is a resource reference (${value}), not text`);
  }
  return value;
}

function versionCodeOf(path: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new ApkVersionError(`${path}: its manifest has no whole-number android:versionCode`);
  }
  return value;
}

function packageNameOf(path: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new ApkVersionError(`${path}: its manifest has no package name`);
  return value;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
