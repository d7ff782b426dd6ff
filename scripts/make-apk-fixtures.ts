/**
 * `node --import tsx scripts/make-apk-fixtures.ts`: writes the APKs that server/test/apk-version.test.ts
 * reads, into server/test/fixtures/. The demo package in server/demo-assets is a text file, and a
 * real app would bring megabytes and a licence with it; these are small, made here, and genuine
 * where it matters: a zip whose AndroidManifest.xml is Android's binary XML (AXML) as aapt writes
 * it (`aapt dump xmltree <apk> AndroidManifest.xml` reads them). The same bytes on every run.
 *
 * AXML, as in Android's ResourceTypes.h: every part is a chunk starting with a ResChunk_header
 * {u16 type, u16 headerSize, u32 size}, little-endian. The file is one XML chunk holding a string
 * pool, a resource map (the android attribute ids of the first strings), then the tree as a
 * stream of start/end namespace and start/end element chunks. An attribute is {u32 namespace,
 * u32 name, u32 raw string, Res_value {u16 size, u8 0, u8 type, u32 data}}; indexes are into the
 * string pool, 0xffffffff for none.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';

const none = 0xffffffff;
const chunk = { xml: 0x0003, stringPool: 0x0001, resourceMap: 0x0180 } as const;
const node = { startNamespace: 0x0100, endNamespace: 0x0101, startElement: 0x0102, endElement: 0x0103 } as const;
const valueType = { reference: 0x01, string: 0x03, intDec: 0x10 } as const;
const utf8Flag = 1 << 8;
const androidNs = 'http://schemas.android.com/apk/res/android';
/** android.R.attr ids: aapt maps these attribute names to them through the resource map. */
const androidAttr = { versionCode: 0x0101021b, versionName: 0x0101021c, minSdkVersion: 0x0101020c } as const;

export interface ManifestFacts {
  packageName: string;
  versionCode: number;
  /** Text, or a reference to a string resource (android:versionName="@string/…"). */
  versionName: string | { reference: number };
  minSdkVersion?: number;
  /** aapt writes UTF-16 string pools, aapt2 UTF-8 ones: a reader must take both. */
  encoding?: 'utf16' | 'utf8';
}

function header(type: number, headerSize: number, size: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeUInt16LE(type, 0);
  out.writeUInt16LE(headerSize, 2);
  out.writeUInt32LE(size, 4);
  return out;
}

function u32(...values: number[]): Buffer {
  const out = Buffer.alloc(values.length * 4);
  values.forEach((value, index) => out.writeUInt32LE(value >>> 0, index * 4));
  return out;
}

function pad4(data: Buffer): Buffer {
  return data.length % 4 === 0 ? data : Buffer.concat([data, Buffer.alloc(4 - (data.length % 4))]);
}

/** A length prefix of the string pool: one unit, or two with the high bit set when it is long. */
function lengthPrefix(length: number, unitBytes: 1 | 2): Buffer {
  const high = unitBytes === 1 ? 0x80 : 0x8000;
  const units = length < high ? [length] : [(length >> (unitBytes * 8)) | high, length & (high * 2 - 1)];
  const out = Buffer.alloc(units.length * unitBytes);
  units.forEach((unit, index) => (unitBytes === 1 ? out.writeUInt8(unit, index) : out.writeUInt16LE(unit, index * 2)));
  return out;
}

function encodeString(text: string, encoding: 'utf16' | 'utf8'): Buffer {
  if (encoding === 'utf16') {
    return Buffer.concat([lengthPrefix(text.length, 2), Buffer.from(text, 'utf16le'), Buffer.alloc(2)]);
  }
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([lengthPrefix(text.length, 1), lengthPrefix(bytes.length, 1), bytes, Buffer.alloc(1)]);
}

function stringPool(strings: string[], encoding: 'utf16' | 'utf8'): Buffer {
  const encoded = strings.map((text) => encodeString(text, encoding));
  const offsets: number[] = [];
  let offset = 0;
  for (const data of encoded) {
    offsets.push(offset);
    offset += data.length;
  }
  const headerSize = 28;
  const stringsStart = headerSize + strings.length * 4;
  const body = pad4(Buffer.concat(encoded));
  const size = stringsStart + body.length;
  const flags = encoding === 'utf8' ? utf8Flag : 0;
  return Buffer.concat([
    header(chunk.stringPool, headerSize, size),
    u32(strings.length, 0, flags, stringsStart, 0),
    u32(...offsets),
    body,
  ]);
}

/** A tree node chunk: header, line number and comment (none), then its own fields. */
function treeNode(type: number, line: number, fields: Buffer): Buffer {
  return Buffer.concat([header(type, 16, 16 + fields.length), u32(line, none), fields]);
}

interface Attribute {
  ns: number;
  name: number;
  raw: number;
  type: number;
  data: number;
}

function startElement(line: number, name: number, attributes: Attribute[]): Buffer {
  const ext = Buffer.alloc(20);
  ext.writeUInt32LE(none, 0); // the element's own namespace: none
  ext.writeUInt32LE(name, 4);
  ext.writeUInt16LE(20, 8); // attributeStart: right after this extension
  ext.writeUInt16LE(20, 10); // attributeSize
  ext.writeUInt16LE(attributes.length, 12);
  // idIndex, classIndex and styleIndex stay 0: no id, class or style attribute.
  const values = attributes.map((attribute) => {
    const out = Buffer.alloc(20);
    out.writeUInt32LE(attribute.ns >>> 0, 0);
    out.writeUInt32LE(attribute.name, 4);
    out.writeUInt32LE(attribute.raw >>> 0, 8);
    out.writeUInt16LE(8, 12);
    out.writeUInt8(0, 14);
    out.writeUInt8(attribute.type, 15);
    out.writeInt32LE(attribute.data, 16);
    return out;
  });
  return treeNode(node.startElement, line, Buffer.concat([ext, ...values]));
}

function endElement(line: number, name: number): Buffer {
  return treeNode(node.endElement, line, u32(none, name));
}

function versionNameAttribute(ns: number, name: number, value: number | { reference: number }): Attribute {
  if (typeof value === 'number') return { ns, name, raw: value, type: valueType.string, data: value };
  return { ns, name, raw: none, type: valueType.reference, data: value.reference };
}

/**
 * The binary AndroidManifest.xml of
 * `<manifest xmlns:android="…" package="…" android:versionCode="…" android:versionName="…">
 *    <uses-sdk android:minSdkVersion="…"/> </manifest>`.
 */
export function androidManifest(facts: ManifestFacts): Buffer {
  // Strings with a resource id come first, in the order of the resource map (as aapt does).
  const strings = [
    'versionCode',
    'versionName',
    'minSdkVersion',
    'android',
    androidNs,
    'package',
    'manifest',
    'uses-sdk',
    facts.packageName,
    ...(typeof facts.versionName === 'string' ? [facts.versionName] : []),
  ];
  const at = (text: string) => strings.indexOf(text);
  const ns = at(androidNs);
  const pool = stringPool(strings, facts.encoding ?? 'utf16');
  const resourceMap = Buffer.concat([
    header(chunk.resourceMap, 8, 8 + 3 * 4),
    u32(androidAttr.versionCode, androidAttr.versionName, androidAttr.minSdkVersion),
  ]);
  const tree = [
    treeNode(node.startNamespace, 1, u32(at('android'), ns)),
    // Attributes with a resource id in id order, then the others, as aapt sorts them.
    startElement(1, at('manifest'), [
      { ns, name: at('versionCode'), raw: none, type: valueType.intDec, data: facts.versionCode },
      versionNameAttribute(
        ns,
        at('versionName'),
        typeof facts.versionName === 'string' ? at(facts.versionName) : facts.versionName,
      ),
      {
        ns: none,
        name: at('package'),
        raw: at(facts.packageName),
        type: valueType.string,
        data: at(facts.packageName),
      },
    ]),
    startElement(2, at('uses-sdk'), [
      { ns, name: at('minSdkVersion'), raw: none, type: valueType.intDec, data: facts.minSdkVersion ?? 24 },
    ]),
    endElement(2, at('uses-sdk')),
    endElement(3, at('manifest')),
    treeNode(node.endNamespace, 3, u32(at('android'), ns)),
  ];
  const body = Buffer.concat([pool, resourceMap, ...tree]);
  return Buffer.concat([header(chunk.xml, 8, 8 + body.length), body]);
}

export type ZipEntry =
  | { name: string; data: Buffer; deflate?: boolean }
  /** `zeros` zero bytes, stored: written as a hole, so a large entry costs no disk. */
  | { name: string; zeros: number };

/** 1 January 2024, 00:00, in MS-DOS form: fixed so that the same input gives the same bytes. */
const dosTime = 0;
const dosDate = ((2024 - 1980) << 9) | (1 << 5) | 1;

function crcOfZeros(length: number): number {
  const block = Buffer.alloc(Math.min(length, 16 * 1024 * 1024));
  let crc = 0;
  for (let left = length; left > 0; left -= block.length)
    crc = crc32(block.subarray(0, Math.min(left, block.length)), crc);
  return crc;
}

/**
 * Writes a zip (PKZIP 2.0: no zip64, so under 4 GiB) with one local header and data per entry,
 * then the central directory and its end record: the structure an APK has, without a signature.
 */
export function writeZip(path: string, entries: ZipEntry[]): void {
  const fd = openSync(path, 'w');
  try {
    let offset = 0;
    const central: Buffer[] = [];
    for (const entry of entries) {
      const name = Buffer.from(entry.name, 'utf8');
      const size = 'data' in entry ? entry.data.length : entry.zeros;
      const crc = 'data' in entry ? crc32(entry.data) : crcOfZeros(entry.zeros);
      const deflate = 'data' in entry && entry.deflate === true;
      const stored = 'data' in entry ? (deflate ? deflateRawSync(entry.data) : entry.data) : undefined;
      const compressedSize = stored?.length ?? size;
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(deflate ? 8 : 0, 8);
      local.writeUInt16LE(dosTime, 10);
      local.writeUInt16LE(dosDate, 12);
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(compressedSize, 18);
      local.writeUInt32LE(size, 22);
      local.writeUInt16LE(name.length, 26);
      const record = Buffer.alloc(46);
      record.writeUInt32LE(0x02014b50, 0);
      record.writeUInt16LE(20, 4);
      record.writeUInt16LE(20, 6);
      record.writeUInt16LE(deflate ? 8 : 0, 10);
      record.writeUInt16LE(dosTime, 12);
      record.writeUInt16LE(dosDate, 14);
      record.writeUInt32LE(crc, 16);
      record.writeUInt32LE(compressedSize, 20);
      record.writeUInt32LE(size, 24);
      record.writeUInt16LE(name.length, 28);
      record.writeUInt32LE(offset, 42);
      central.push(record, name);
      offset += writeSync(fd, Buffer.concat([local, name]), 0, local.length + name.length, offset);
      if (stored !== undefined) offset += writeSync(fd, stored, 0, stored.length, offset);
      else offset += compressedSize; // the hole: the next write lands past it
    }
    const directory = Buffer.concat(central);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(entries.length, 8);
    end.writeUInt16LE(entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(offset, 16);
    writeSync(fd, Buffer.concat([directory, end]), 0, directory.length + end.length, offset);
  } finally {
    closeSync(fd);
  }
}

/** What the fixtures hold: the test reads these facts back. */
export const fixtureFacts = {
  'xingliao-5.1.0.apk': { packageName: 'com.xingliao.app', versionCode: 510, versionName: '5.1.0' },
  'xingliao-utf8.apk': { packageName: 'com.xingliao.app', versionCode: 2024060107, versionName: '6.0.0-测试版' },
} satisfies Record<string, ManifestFacts>;

const jarManifest = Buffer.from('Manifest-Version: 1.0\r\nCreated-By: scripts/make-apk-fixtures.ts\r\n\r\n');
// A few kilobytes in the place of the app's code, so that the manifest is not the only entry.
const dex = Buffer.concat([Buffer.from('dex\n035\0'), Buffer.alloc(4096, 0x5a)]);

export function writeFixtures(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  const write = (name: string, entries: ZipEntry[]) => {
    writeZip(join(dir, name), entries);
    written.push(name);
  };
  write('xingliao-5.1.0.apk', [
    { name: 'META-INF/MANIFEST.MF', data: jarManifest, deflate: true },
    { name: 'AndroidManifest.xml', data: androidManifest(fixtureFacts['xingliao-5.1.0.apk']), deflate: true },
    { name: 'classes.dex', data: dex, deflate: true },
  ]);
  write('xingliao-utf8.apk', [
    { name: 'AndroidManifest.xml', data: androidManifest({ ...fixtureFacts['xingliao-utf8.apk'], encoding: 'utf8' }) },
  ]);
  // The version name kept as a string resource, which only resources.arsc could resolve.
  const referenced = { ...fixtureFacts['xingliao-5.1.0.apk'], versionName: { reference: 0x7f0e0001 } };
  write('reference-version.apk', [{ name: 'AndroidManifest.xml', data: androidManifest(referenced) }]);
  // A zip, but not an APK.
  write('no-manifest.apk', [{ name: 'classes.dex', data: dex, deflate: true }]);
  // An APK whose manifest was cut in half, as by a broken build step.
  const manifest = androidManifest(fixtureFacts['xingliao-5.1.0.apk']);
  write('cut-manifest.apk', [{ name: 'AndroidManifest.xml', data: manifest.subarray(0, manifest.length >> 1) }]);
  // A manifest whose second chunk claims a size of 0: a reader that trusts sizes never gets past it.
  const looping = Buffer.concat([header(chunk.xml, 8, 24), Buffer.alloc(16)]);
  write('zero-chunk-manifest.apk', [{ name: 'AndroidManifest.xml', data: looping }]);
  // Text that happens to be called AndroidManifest.xml, as in a source tree zipped by mistake.
  const text = Buffer.from('<?xml version="1.0"?>\n<manifest package="com.xingliao.app"/>\n');
  write('text-manifest.apk', [{ name: 'AndroidManifest.xml', data: text, deflate: true }]);
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = resolve(import.meta.dirname, '../server/test/fixtures');
  for (const name of writeFixtures(dir)) console.log(`wrote ${join(dir, name)}`);
}
