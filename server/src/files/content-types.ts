/** The files the server hosts, by extension. Nothing is ever stored or served as HTML. */
export const imageTypes: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
};

export const packageTypes: Record<string, string> = {
  apk: 'application/vnd.android.package-archive',
  aab: 'application/octet-stream',
  ipa: 'application/octet-stream',
  exe: 'application/vnd.microsoft.portable-executable',
  msi: 'application/x-msi',
  dmg: 'application/x-apple-diskimage',
  pkg: 'application/octet-stream',
  zip: 'application/zip',
  // Update payloads (docs/releases.md#update-payloads): Tauri's macOS .app.tar.gz, and
  // electron-builder's .blockmap, which is gzipped JSON.
  'tar.gz': 'application/gzip',
  blockmap: 'application/gzip',
};

/** The extension that decides a file's kind, lower case: `tar.gz` for a gzipped tarball, else
 * what follows the last dot. */
export function extensionOf(name: string): string {
  if (/\.tar\.gz$/i.test(name)) return 'tar.gz';
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** Checks that the bytes really are the image the type claims, so that a file uploaded as an
 * image cannot be something a browser would run. */
export function looksLikeImage(contentType: string, data: Uint8Array): boolean {
  const head = Buffer.from(data.subarray(0, 64));
  switch (contentType) {
    case 'image/png':
      return head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    case 'image/jpeg':
      return head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
    case 'image/gif':
      return head.subarray(0, 6).toString('latin1') === 'GIF87a' || head.subarray(0, 6).toString('latin1') === 'GIF89a';
    case 'image/webp':
      return head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP';
    case 'image/avif':
      return (
        head.subarray(4, 8).toString('latin1') === 'ftyp' && /avi[fs]/.test(head.subarray(8, 12).toString('latin1'))
      );
    case 'image/x-icon':
      return head[0] === 0 && head[1] === 0 && head[2] === 1 && head[3] === 0;
    case 'image/svg+xml':
      return startsWithSvgRoot(Buffer.from(data.subarray(0, svgPrologueBytes)).toString('utf8'));
    default:
      return false;
  }
}

/** How far into a file its <svg> root element may start. */
const svgPrologueBytes = 4096;

/**
 * Whether `text` is an SVG document's start: an optional byte order mark, XML declaration,
 * comments and SVG doctype, in that order, then `<svg`. Read in one pass with indexOf: a regular
 * expression with a repeated comment group backtracked exponentially on many empty comments.
 */
export function startsWithSvgRoot(text: string): boolean {
  let at = text.startsWith('\uFEFF') ? 1 : 0;
  const skipSpace = () => {
    while (at < text.length && /\s/.test(text[at] ?? '')) at++;
  };
  /** Moves past the construct that starts at `at` with `open` and ends with `close`; false when
   * it is not there, or not closed within the text. */
  const skip = (open: string, close: string, caseless = false): boolean | undefined => {
    const head = text.slice(at, at + open.length);
    if ((caseless ? head.toLowerCase() : head) !== open) return undefined;
    const end = text.indexOf(close, at + open.length);
    if (end === -1) return false;
    at = end + close.length;
    return true;
  };
  skipSpace();
  if (skip('<?xml', '>') === false) return false;
  skipSpace();
  for (let comment = skip('<!--', '-->'); comment !== undefined; comment = skip('<!--', '-->')) {
    if (!comment) return false;
    skipSpace();
  }
  if (skip('<!doctype svg', '>', true) === false) return false;
  skipSpace();
  return text.slice(at, at + 4).toLowerCase() === '<svg' && /[\s>]/.test(text[at + 4] ?? '');
}

const zip = Buffer.from('PK\x03\x04', 'latin1');
const gzip = Buffer.from([0x1f, 0x8b]);
const ole = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const startsWith = (prefix: Buffer) => (head: Buffer) => head.subarray(0, prefix.byteLength).equals(prefix);

/** The first bytes of each package type: APK, AAB and IPA are zip archives; an .exe starts
 * with MZ, an .msi is an OLE compound file, a .pkg a xar archive. A .dmg has its signature at
 * the end instead (the `koly` block, the last 512 bytes): see dmgTrailer. */
const packageMagic: Record<string, { looks: (head: Buffer) => boolean; what: string }> = {
  apk: { looks: startsWith(zip), what: 'an APK (a zip archive)' },
  aab: { looks: startsWith(zip), what: 'an Android App Bundle (a zip archive)' },
  ipa: { looks: startsWith(zip), what: 'an IPA (a zip archive)' },
  zip: { looks: startsWith(zip), what: 'a zip archive' },
  exe: { looks: startsWith(Buffer.from('MZ', 'latin1')), what: 'a Windows program (MZ)' },
  msi: { looks: startsWith(ole), what: 'a Windows Installer package (OLE)' },
  pkg: { looks: startsWith(Buffer.from('xar!', 'latin1')), what: 'a macOS installer package (xar)' },
  dmg: { looks: () => true, what: 'a disk image' },
  'tar.gz': { looks: startsWith(gzip), what: 'a gzip archive' },
  blockmap: { looks: startsWith(gzip), what: 'an electron-builder blockmap (gzip)' },
};

export function looksLikePackage(extension: string, head: Uint8Array): boolean {
  return packageMagic[extension]?.looks(Buffer.from(head)) ?? false;
}

/** A UDIF disk image ends with a 512-byte trailer that starts with "koly". */
export function hasDmgTrailer(tail: Uint8Array): boolean {
  return (
    tail.byteLength >= 512 &&
    Buffer.from(tail.subarray(tail.byteLength - 512))
      .subarray(0, 4)
      .toString('latin1') === 'koly'
  );
}

export interface UploadKind {
  kind: 'image' | 'package';
  contentType: string;
  checkHead: (head: Buffer) => string | undefined;
  checkTail?: (tail: Buffer) => string | undefined;
}

/** What a file named `name` must be to be hosted, by its extension: its content type and the
 * checks of its bytes. Undefined for an extension that is not allowed. */
export function uploadKindOf(name: string, allowed: ('image' | 'package')[]): UploadKind | undefined {
  const extension = extensionOf(name);
  const image = imageTypes[extension];
  if (image !== undefined && allowed.includes('image')) {
    return {
      kind: 'image',
      contentType: image,
      checkHead: (head) => (looksLikeImage(image, head) ? undefined : `the body is not a ${image} image`),
    };
  }
  const type = packageTypes[extension];
  const magic = packageMagic[extension];
  if (type === undefined || magic === undefined || !allowed.includes('package')) return undefined;
  return {
    kind: 'package',
    contentType: type,
    checkHead: (head) => (magic.looks(head) ? undefined : `the body is not ${magic.what}`),
    ...(extension === 'dmg' && {
      checkTail: (tail: Buffer) => (hasDmgTrailer(tail) ? undefined : 'the body is not a disk image (no koly trailer)'),
    }),
  };
}
