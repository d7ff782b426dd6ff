/**
 * `restore`: loads an archive written by `backup` into an empty database and an empty file
 * storage (docs/backups.md).
 *
 * The archive is read once, front to back: the manifest first (checked before anything is
 * written), each table's rows into a scratch directory (checked against the manifest's count and
 * SHA-256), each file into the storage (checked against its SHA-256). Only when the whole
 * archive has proved sound is the database touched: migrations up to the archive's, then every
 * row in one transaction, in foreign-key order, sequences moved past the restored ids, then the
 * migrations this build has beyond the archive's. A failure anywhere removes the files already
 * written, so the target is left as empty as it was found.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { sql } from 'kysely';
import tar from 'tar-stream';
import type { Db } from '../db/connect.js';
import { knownMigrations, migrate } from '../db/migrations.js';
import { IntakeError, type FileStorage } from '../storage/index.js';
import {
  ArchiveError,
  jsonToValue,
  manifestName,
  parseManifest,
  type FileEntry,
  type Manifest,
  type TableEntry,
} from './archive.js';
import {
  appliedMigrations,
  dependencyOrder,
  readCatalog,
  writeSequence,
  type AnyDb,
  type TableInfo,
} from './catalog.js';
import { columnWithNul, fileLines, parseRow } from './lines.js';
import { drained } from './tar.js';

/** The target is not empty, or its schema is not one the archive can go into. Nothing was
 * changed. */
export class RestoreRefusedError extends Error {
  override name = 'RestoreRefusedError';
}

export interface RestoreOptions {
  db: Db;
  storage: FileStorage;
  from: string;
}

export interface RestoreSummary {
  manifest: Manifest;
  rows: number;
  bytes: number;
}

const manifestMaxBytes = 64 * 1024 * 1024;
const rowsPerInsert = 100;

export async function restore({ db, storage, from }: RestoreOptions): Promise<RestoreSummary> {
  await refuseNonEmpty(db, storage);
  const scratch = await mkdtemp(join(tmpdir(), 'chat-site-restore-'));
  const written: string[] = [];
  try {
    const manifest = await readArchive(db, storage, from, scratch, written);
    const rows = await load(db, storage, manifest, scratch);
    return { manifest, rows, bytes: manifest.files.reduce((sum, file) => sum + file.size, 0) };
  } catch (error) {
    for (const key of written) await storage.delete(key).catch(() => undefined);
    throw error;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function refuseNonEmpty(db: Db, storage: FileStorage): Promise<void> {
  const kysely = db.kysely as unknown as AnyDb;
  const filled: string[] = [];
  for (const table of await readCatalog(kysely, db.dialect)) {
    const { rows } = await sql`SELECT 1 FROM ${sql.table(table.name)} LIMIT 1`.execute(kysely);
    if (rows.length > 0) filled.push(table.name);
  }
  if (filled.length > 0) {
    throw new RestoreRefusedError(
      `the database is not empty (rows in ${filled.join(', ')}); restore only into a new, empty database`,
    );
  }
  const key = await storage.anyKey();
  if (key !== undefined) {
    throw new RestoreRefusedError(
      `the file storage ${storage.description} is not empty (it holds ${key}); restore only into an empty one`,
    );
  }
}

/** The archive's schema must be this build's or an older one, and the target's no newer. */
async function refuseSchema(db: Db, manifest: Manifest): Promise<void> {
  const unknown = manifest.migrations.filter((name) => !knownMigrations.includes(name));
  if (unknown.length > 0) {
    throw new RestoreRefusedError(
      `the archive was made by a newer build (migrations ${unknown.join(', ')} are unknown here); restore with that build or a later one`,
    );
  }
  const applied = await appliedMigrations(db.kysely as unknown as AnyDb, db.dialect);
  if (applied.some((name, at) => manifest.migrations[at] !== name)) {
    throw new RestoreRefusedError(
      `the database has run migrations the archive has not (${applied.join(', ')}); restore into a new database no server has started on`,
    );
  }
}

/** Reads the whole archive: tables into `scratch`, files into the storage (their keys pushed on
 * `written` as they land). Answers the manifest once everything it lists was found intact. */
async function readArchive(
  db: Db,
  storage: FileStorage,
  from: string,
  scratch: string,
  written: string[],
): Promise<Manifest> {
  const extract = tar.extract();
  let damage: Error | undefined;
  extract.on('error', (error: Error) => (damage ??= error));
  const feeding = feed(from, extract);
  feeding.catch(() => undefined); // awaited below; its failure also ends the entries
  let manifest: Manifest | undefined;
  let expected = new Map<string, FileEntry>();
  const tablesSeen = new Set<string>();
  try {
    for await (const entry of extract) {
      const name = entry.header.name;
      const body = Readable.from(entry, { objectMode: false });
      if (manifest === undefined) {
        if (name !== manifestName)
          throw new ArchiveError(`it does not start with ${manifestName}: not a backup archive`);
        manifest = parseManifest(await readSmall(body, manifestMaxBytes));
        await refuseSchema(db, manifest);
        expected = new Map(manifest.files.map((file) => [file.key, file]));
        continue;
      }
      const table = /^tables\/(.+)\.jsonl$/.exec(name)?.[1];
      const key = /^files\/(.+)$/.exec(name)?.[1];
      if (table !== undefined) {
        const entry = Object.hasOwn(manifest.tables, table) ? manifest.tables[table] : undefined;
        await saveTable(body, table, entry, join(scratch, `${table}.jsonl`), db.dialect);
        tablesSeen.add(table);
      } else if (key !== undefined) {
        const file = expected.get(key);
        if (file === undefined) throw new ArchiveError(`${name} is not in the manifest, or is there twice`);
        expected.delete(key);
        await restoreFile(storage, body, file);
        written.push(key);
      } else {
        throw new ArchiveError(`unexpected entry ${name}`);
      }
    }
    await feeding;
  } catch (error) {
    extract.destroy();
    await feeding.catch(() => undefined);
    if (error instanceof ArchiveError || error instanceof RestoreRefusedError) throw error;
    // A cut or corrupt archive shows up as the tar or gzip reader's error, or as a body that broke
    // under whoever was reading it.
    if (damage !== undefined) throw new ArchiveError(`it is damaged or cut short (${damage.message})`);
    throw error;
  }
  if (manifest === undefined) throw new ArchiveError('it is empty');
  const missing = [
    ...Object.keys(manifest.tables)
      .filter((table) => !tablesSeen.has(table))
      .map((table) => `tables/${table}.jsonl`),
    ...[...expected.keys()].map((key) => `files/${key}`),
  ];
  if (missing.length > 0) throw new ArchiveError(`it is cut short: ${missing.join(', ')} missing`);
  return manifest;
}

/** The archive's bytes into the tar reader, through gunzip when it starts like gzip. */
async function feed(from: string, extract: tar.Extract): Promise<void> {
  try {
    const source = createReadStream(from);
    let input: Readable = source;
    if (await startsWithGzip(from)) {
      input = source.pipe(createGunzip());
      source.once('error', (error) => input.destroy(error));
    }
    for await (const chunk of input as AsyncIterable<Buffer>) {
      if (!extract.write(chunk)) await drained(extract);
      // Destroyed by the reader (a refusal, a failure): stop reading the archive.
      if (extract.destroyed) throw new Error('the archive is no longer being read');
    }
    extract.end(undefined);
  } catch (error) {
    extract.destroy(error as Error);
    throw error;
  }
}

async function startsWithGzip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

async function readSmall(body: Readable, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).byteLength;
    if (size > maxBytes) throw new ArchiveError(`${manifestName} is larger than ${maxBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function saveTable(
  body: Readable,
  table: string,
  entry: TableEntry | undefined,
  path: string,
  dialect: Db['dialect'],
): Promise<void> {
  if (entry === undefined) throw new ArchiveError(`tables/${table}.jsonl is not in the manifest`);
  const hash = createHash('sha256');
  let lines = 0;
  const count = new PassThrough();
  count.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    for (const byte of chunk) if (byte === 0x0a) lines++;
  });
  await pipeline(body, count, createWriteStream(path));
  if (hash.digest('hex') !== entry.sha256 || lines !== entry.rows) {
    throw new ArchiveError(`tables/${table}.jsonl does not match its SHA-256 and row count in the manifest`);
  }
  await checkRows(path, table, dialect);
}

/** Every line is a row this database can hold, checked before the database is touched: on
 * PostgreSQL, no text with a NUL character, which it refuses and SQLite keeps
 * (docs/backups.md#text-postgresql-cannot-hold). */
async function checkRows(path: string, table: string, dialect: Db['dialect']): Promise<void> {
  let line = 0;
  for await (const text of fileLines(path)) {
    line++;
    const row = parseRow(text);
    if (row === undefined) throw new ArchiveError(`tables/${table}.jsonl line ${line} is not a JSON row`);
    const column = dialect === 'postgres' ? columnWithNul(row) : undefined;
    if (column !== undefined) {
      throw new RestoreRefusedError(
        `${table}.${column} in row ${line} holds a NUL character, which PostgreSQL cannot store; ` +
          'restore this archive into SQLite, or remove the character there and make a new backup',
      );
    }
  }
}

async function restoreFile(storage: FileStorage, body: Readable, file: FileEntry): Promise<void> {
  let staged;
  try {
    staged = await storage.stage(body, { maxBytes: file.size, allowEmpty: true }, file.content_type);
  } catch (error) {
    if (error instanceof IntakeError) throw new ArchiveError(`files/${file.key} is larger than the manifest says`);
    throw error;
  }
  if (staged.sha256 !== file.sha256 || staged.size !== file.size) {
    await staged.discard();
    throw new ArchiveError(`files/${file.key} does not match its SHA-256 in the manifest`);
  }
  await staged.commit(file.key);
}

/** Migrations up to the archive's, every row in one transaction, then the rest of the
 * migrations. Answers the number of rows loaded. */
async function load(db: Db, storage: FileStorage, manifest: Manifest, scratch: string): Promise<number> {
  const last = manifest.migrations.at(-1);
  if (last !== undefined) await migrate(db, storage, last);
  const kysely = db.kysely as unknown as AnyDb;
  const catalog = new Map((await readCatalog(kysely, db.dialect)).map((table) => [table.name, table]));
  for (const [name, entry] of Object.entries(manifest.tables)) {
    const table = catalog.get(name);
    if (table === undefined) throw new ArchiveError(`table ${name} is not in the schema its migrations make`);
    const absent = entry.columns.filter((column) => !table.columns.some((known) => known.name === column));
    if (absent.length > 0) throw new ArchiveError(`table ${name} has no column ${absent.join(', ')} in this schema`);
  }
  const files = new Map(manifest.files.map((file) => [file.key, file]));
  const order = dependencyOrder([...catalog.values()].filter((table) => manifest.tables[table.name] !== undefined));
  const rows = await kysely.transaction().execute(async (trx) => {
    let loaded = 0;
    for (const table of order) {
      const entry = manifest.tables[table.name] as TableEntry;
      const check =
        table.name === 'stored_files' ? (row: Record<string, unknown>) => checkFileRow(row, files) : undefined;
      loaded += await loadTable(trx, db.dialect, table, entry, join(scratch, `${table.name}.jsonl`), check);
      // Always: a table numbered by AUTOINCREMENT on one side may be a serial on the other.
      await writeSequence(trx, db.dialect, table, entry.next_id ?? 1);
    }
    return loaded;
  });
  await migrate(db, storage);
  return rows;
}

/** A row of stored_files must name a file the archive held, with the same hash. */
function checkFileRow(row: Record<string, unknown>, files: Map<string, FileEntry>): void {
  const file = files.get(String(row.key));
  if (file === undefined || file.sha256 !== row.sha256) {
    throw new ArchiveError(`stored_files names ${String(row.key)}, which the archive does not hold`);
  }
}

async function loadTable(
  db: AnyDb,
  dialect: Db['dialect'],
  table: TableInfo,
  entry: TableEntry,
  path: string,
  check?: (row: Record<string, unknown>) => void,
): Promise<number> {
  const types = new Map(table.columns.map((column) => [column.name, column.type]));
  const columns = sql.join(entry.columns.map((column) => sql.ref(column)));
  let batch: unknown[][] = [];
  let loaded = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const values = sql.join(batch.map((row) => sql`(${sql.join(row)})`));
    await sql`INSERT INTO ${sql.table(table.name)} (${columns}) VALUES ${values}`.execute(db);
    loaded += batch.length;
    batch = [];
  };
  for await (const line of fileLines(path)) {
    if (line === '') continue;
    const row = JSON.parse(line) as Record<string, unknown>;
    check?.(row);
    batch.push(entry.columns.map((column) => jsonToValue(row[column] ?? null, types.get(column) ?? '', dialect)));
    if (batch.length === rowsPerInsert) await flush();
  }
  await flush();
  return loaded;
}
