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
  ipa: 'application/octet-stream',
  exe: 'application/vnd.microsoft.portable-executable',
  msi: 'application/x-msi',
  dmg: 'application/x-apple-diskimage',
  pkg: 'application/octet-stream',
  zip: 'application/zip',
};

export function extensionOf(name: string): string {
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
