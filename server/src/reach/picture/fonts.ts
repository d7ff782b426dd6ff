/**
 * The picture's font: Noto Sans SC as @fontsource ships it, about a hundred WOFF slices per weight
 * split by Unicode range. A picture loads only the slices its text touches, so a Chinese title
 * costs a few hundred KB of font rather than the 10 MB of a whole CJK face
 * (docs/scaling.md#share-pictures).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { inflateSync } from 'node:zlib';

export type Weight = 400 | 700;

export interface FontFace {
  name: string;
  data: Buffer;
  weight: Weight;
  style: 'normal';
}

const family = 'Noto Sans SC';
const requireFile = createRequire(import.meta.url);

interface Slice {
  /** The part of a file name that names the slice: `latin`, `57`. */
  name: string;
  ranges: [number, number][];
}

let slices: Slice[] | undefined;
let folder: string | undefined;

/** The slices and their ranges, read once from the package's unicode.json. */
function readSlices(): Slice[] {
  if (slices !== undefined) return slices;
  const index = requireFile.resolve('@fontsource/noto-sans-sc/unicode.json');
  folder = join(dirname(index), 'files');
  const table = requireFile(index) as Record<string, string>;
  slices = Object.entries(table).map(([key, ranges]) => ({
    name: key.replace(/^\[(\d+)\]$/, '$1'),
    ranges: ranges.split(',').map((range) => {
      const [from = '0', to = from] = range.trim().replace(/^U\+/i, '').split('-');
      return [parseInt(from, 16), parseInt(to, 16)] as [number, number];
    }),
  }));
  return slices;
}

/** The slices that hold some character of `text`, in the package's order. */
export function slicesFor(text: string): string[] {
  const codes = new Set([...text].map((char) => char.codePointAt(0) ?? 0));
  return readSlices()
    .filter((slice) => [...codes].some((code) => slice.ranges.some(([from, to]) => code >= from && code <= to)))
    .map((slice) => slice.name);
}

/**
 * Slice files read lately, least recently used first out. Satori keeps a slice parsed for as long
 * as its bytes are held, so this bound is what bounds the parsed fonts too: about 96 of the
 * 202 files, a few MB of fonts (docs/scaling.md#share-pictures).
 */
const files = new Map<string, Promise<Buffer>>();
const maxFiles = 96;

/** Where the package keeps a slice's WOFF file. */
export function slicePath(name: string, weight: Weight): string {
  readSlices();
  return join(folder as string, `noto-sans-sc-${name}-${weight}-normal.woff`);
}

function sliceFile(name: string, weight: Weight): Promise<Buffer> {
  const file = slicePath(name, weight);
  let data = files.get(file);
  if (data !== undefined) files.delete(file);
  else {
    data = readFile(file).then(sfntOf);
    data.catch(() => files.delete(file));
  }
  files.set(file, data);
  for (const oldest of files.keys()) {
    if (files.size <= maxFiles) break;
    files.delete(oldest);
  }
  return data;
}

/**
 * The font a WOFF file wraps, as the plain OpenType file it was (the WOFF 1.0 layout: a 44-byte
 * header, then 20 bytes per table: tag, offset, compressed length, length, checksum). Satori
 * would unwrap it itself with a zlib written in JavaScript, which took most of the first
 * picture's second; Node's zlib does it in a few milliseconds (docs/scaling.md#share-pictures).
 */
export function sfntOf(woff: Buffer): Buffer {
  if (woff.length < 44 || woff.toString('latin1', 0, 4) !== 'wOFF') return woff;
  const tables = woff.readUInt16BE(12);
  const entries = Array.from({ length: tables }, (_, i) => {
    const at = 44 + i * 20;
    return {
      tag: woff.readUInt32BE(at),
      offset: woff.readUInt32BE(at + 4),
      compressed: woff.readUInt32BE(at + 8),
      length: woff.readUInt32BE(at + 12),
      checksum: woff.readUInt32BE(at + 16),
    };
  });
  const padded = (n: number) => (n + 3) & ~3;
  const size = 12 + 16 * tables + entries.reduce((sum, entry) => sum + padded(entry.length), 0);
  const sfnt = Buffer.alloc(size);
  const search = 2 ** Math.floor(Math.log2(Math.max(1, tables)));
  sfnt.writeUInt32BE(woff.readUInt32BE(4), 0); // the flavour: 0x00010000 TrueType, 'OTTO' CFF
  sfnt.writeUInt16BE(tables, 4);
  sfnt.writeUInt16BE(search * 16, 6);
  sfnt.writeUInt16BE(Math.log2(search), 8);
  sfnt.writeUInt16BE(tables * 16 - search * 16, 10);
  let at = 12 + 16 * tables;
  entries.forEach((entry, i) => {
    const stored = woff.subarray(entry.offset, entry.offset + entry.compressed);
    const table = entry.compressed < entry.length ? inflateSync(stored) : stored;
    if (table.length !== entry.length) throw new Error('a WOFF table does not unpack to its length');
    sfnt.writeUInt32BE(entry.tag, 12 + i * 16);
    sfnt.writeUInt32BE(entry.checksum, 16 + i * 16);
    sfnt.writeUInt32BE(at, 20 + i * 16);
    sfnt.writeUInt32BE(entry.length, 24 + i * 16);
    table.copy(sfnt, at);
    at += padded(entry.length);
  });
  return sfnt;
}

export interface Faces {
  fonts: FontFace[];
  /** The CSS font-family list naming every slice: satori takes one face per name and weight,
   * so each slice is a family of its own and the list falls back from one to the next. */
  fontFamily: string;
}

/** The faces satori needs to draw `text` in each weight. */
export async function facesFor(text: string, weights: readonly Weight[]): Promise<Faces> {
  const names = slicesFor(text);
  const faces = names.flatMap((name) => weights.map((weight) => ({ name, weight })));
  const fonts = await Promise.all(
    faces.map(async ({ name, weight }) => ({
      name: `${family} ${name}`,
      data: await sliceFile(name, weight),
      weight,
      style: 'normal' as const,
    })),
  );
  return { fonts, fontFamily: names.map((name) => `"${family} ${name}"`).join(', ') };
}
