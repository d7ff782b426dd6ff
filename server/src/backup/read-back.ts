/**
 * `backup` reads its own archive back before it says it succeeded (docs/backups.md#the-archive-read-back):
 * the manifest as written, every table's rows parsed one by one and counted and hashed as the
 * manifest says, every file's size and SHA-256. A disk that lost a write, or a row no reader
 * could parse, shows up now rather than on the day the archive is needed.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { ArchiveError, filePath, manifestName, tablePath, type Manifest } from './archive.js';
import { parseRow, splitLines } from './lines.js';

export async function readBack(path: string, manifest: Manifest, gzipped: boolean): Promise<void> {
  const expected = new Map<string, (body: Readable) => Promise<void>>();
  expected.set(manifestName, async (body) => {
    const text = Buffer.concat(await body.toArray()).toString('utf8');
    if (text !== `${JSON.stringify(manifest, null, 2)}\n`) throw new ArchiveError(`${manifestName} reads back changed`);
  });
  for (const [name, table] of Object.entries(manifest.tables)) {
    expected.set(tablePath(name), async (body) => {
      const { sha256, lines } = await checkRows(body, tablePath(name));
      if (sha256 !== table.sha256 || lines !== table.rows) {
        throw new ArchiveError(`${tablePath(name)} reads back with other rows than the manifest lists`);
      }
    });
  }
  for (const file of manifest.files) {
    expected.set(filePath(file.key), async (body) => {
      const hash = createHash('sha256');
      let size = 0;
      for await (const chunk of body) {
        hash.update(chunk as Buffer);
        size += (chunk as Buffer).byteLength;
      }
      if (size !== file.size || hash.digest('hex') !== file.sha256) {
        throw new ArchiveError(`${filePath(file.key)} reads back with other bytes than the manifest lists`);
      }
    });
  }
  const extract = tar.extract();
  const source = createReadStream(path);
  const reading = pipeline(gzipped ? [source, createGunzip(), extract] : [source, extract]);
  reading.catch(() => undefined); // awaited below, or its failure ends the entries
  for await (const entry of extract) {
    const check = expected.get(entry.header.name);
    if (check === undefined) throw new ArchiveError(`${entry.header.name} reads back unexpected`);
    expected.delete(entry.header.name);
    await check(Readable.from(entry, { objectMode: false }));
  }
  await reading;
  if (expected.size > 0) throw new ArchiveError(`${[...expected.keys()].join(', ')} missing when read back`);
}

/** Parses every line of a table's entry; answers its SHA-256 and number of lines. */
async function checkRows(body: Readable, what: string): Promise<{ sha256: string; lines: number }> {
  const hash = createHash('sha256');
  async function* hashed(): AsyncGenerator<Buffer> {
    for await (const chunk of body) {
      hash.update(chunk as Buffer);
      yield chunk as Buffer;
    }
  }
  let lines = 0;
  for await (const line of splitLines(hashed())) {
    lines++;
    if (parseRow(line) === undefined) throw new ArchiveError(`${what} line ${lines} reads back as no JSON row`);
  }
  return { sha256: hash.digest('hex'), lines };
}
