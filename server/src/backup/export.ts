/**
 * `backup`: one archive of the database and every hosted file it names, made while servers keep
 * writing (docs/backups.md).
 *
 * 1. Snapshot: every table is read in one read-only transaction (SQLite: one read transaction,
 *    which WAL keeps on one version of the file while others commit; PostgreSQL: REPEATABLE
 *    READ, one snapshot for all statements) into JSONL files in a scratch directory.
 * 2. Files: each file the snapshot's stored_files names is streamed from the storage into the
 *    archive, its size and SHA-256 checked against the row. Files are never changed once stored,
 *    and one uploaded after the snapshot is not named by it. A file deleted after the snapshot
 *    (the row goes first, then the bytes) is left out with its row, and reported.
 * 3. The archive is written to FILE.tmp, flushed, and renamed to FILE: a failed run leaves
 *    nothing under FILE's name.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdtemp, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { sql } from 'kysely';
import tar from 'tar-stream';
import type { Db } from '../db/connect.js';
import { thisRelease } from './release.js';
import { nowIso } from '../lib/time.js';
import type { FileStorage } from '../storage/index.js';
import {
  archiveFormat,
  filePath,
  formatVersion,
  isGzipName,
  manifestName,
  tablePath,
  valueToJson,
  type FileEntry,
  type Manifest,
  type TableEntry,
} from './archive.js';
import { appliedMigrations, readCatalog, readSequence, type AnyDb, type TableInfo } from './catalog.js';
import { rowLine } from './lines.js';
import { readBack } from './read-back.js';
import { addEntry, drained } from './tar.js';

export interface BackupOptions {
  db: Db;
  storage: FileStorage;
  /** The archive to write; gzip-compressed when it ends in .gz or .tgz. */
  to: string;
  /** Told about files left out and attempts made again. */
  warn?: (message: string) => void;
  /** For tests: runs between the snapshot and the copying of the files. */
  afterSnapshot?: () => Promise<void>;
}

export interface BackupSummary {
  path: string;
  manifest: Manifest;
  /** Bytes of the archive. */
  bytes: number;
}

/** A file the storage had a moment ago and no longer has, while the archive was being written. */
class FileVanishedError extends Error {
  override name = 'FileVanishedError';
}

const attempts = 3;
const rowsPerPage = 500;
const filesTable = 'stored_files';

export async function backup(options: BackupOptions): Promise<BackupSummary> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await backupOnce(options);
    } catch (error) {
      // The manifest already listed the file: start again from a new snapshot, which no longer
      // names it.
      if (!(error instanceof FileVanishedError) || attempt === attempts) throw error;
      options.warn?.(`${error.message}; starting again from a new snapshot`);
    }
  }
}

async function backupOnce(options: BackupOptions): Promise<BackupSummary> {
  const { db, storage, to } = options;
  const scratch = await mkdtemp(join(tmpdir(), 'chat-site-backup-'));
  const temporary = `${to}.tmp`;
  try {
    const snapshot = await takeSnapshot(db, scratch);
    await options.afterSnapshot?.();
    const skipped = await missingFiles(storage, snapshot.files);
    for (const file of skipped) {
      options.warn?.(
        `hosted file ${file.key} was deleted from ${storage.description} after the snapshot; it and its row are left out`,
      );
    }
    const leftOut = new Set(skipped.map((file) => file.key));
    if (leftOut.size > 0) snapshot.tables[filesTable] = await dropFileRows(scratch, snapshot.tables, leftOut);
    const manifest: Manifest = {
      format: archiveFormat,
      format_version: formatVersion,
      created_at: snapshot.takenAt,
      app_version: thisRelease().version,
      app_commit: thisRelease().commit,
      source_dialect: db.dialect,
      migrations: snapshot.migrations,
      tables: snapshot.tables,
      files: snapshot.files.filter((file) => !leftOut.has(file.key)),
      skipped_files: skipped.map((file) => ({
        key: file.key,
        reason: 'deleted from the file storage after the snapshot',
      })),
    };
    await writeArchive(temporary, manifest, scratch, storage);
    await readBack(temporary, manifest, isGzipName(to));
    await chmod(temporary, 0o600); // a .tmp left by an earlier run keeps its own mode when reused
    await rename(temporary, to);
    await syncPath(dirname(to));
    return { path: to, manifest, bytes: (await stat(to)).size };
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

interface Snapshot {
  takenAt: string;
  migrations: string[];
  tables: Record<string, TableEntry>;
  files: FileEntry[];
}

/** Every table, read in one transaction, into `<scratch>/<table>.jsonl`. */
async function takeSnapshot(db: Db, scratch: string): Promise<Snapshot> {
  const read = async (trx: AnyDb): Promise<Snapshot> => {
    const takenAt = nowIso();
    const migrations = await appliedMigrations(trx, db.dialect);
    const tables: Record<string, TableEntry> = {};
    const files: FileEntry[] = [];
    for (const table of await readCatalog(trx, db.dialect)) {
      const onRow =
        table.name === filesTable ? (row: Record<string, unknown>) => files.push(fileEntry(row)) : undefined;
      const dumped = await dumpTable(trx, table, join(scratch, `${table.name}.jsonl`), onRow);
      const nextId = await readSequence(trx, db.dialect, table);
      const columns = table.columns.map((column) => column.name);
      tables[table.name] = nextId === undefined ? { ...dumped, columns } : { ...dumped, columns, next_id: nextId };
    }
    return { takenAt, migrations, tables, files };
  };
  const kysely = db.kysely as unknown as AnyDb;
  if (db.dialect === 'sqlite') return kysely.transaction().setAccessMode('read only').execute(read);
  return kysely.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(read);
}

function fileEntry(row: Record<string, unknown>): FileEntry {
  return {
    key: String(row.key),
    size: Number(row.size),
    sha256: String(row.sha256),
    content_type: String(row.content_type),
  };
}

/** A table's rows as JSON lines, a page at a time in primary-key order (keyset paging, so a large
 * table costs no more per page than a small one). */
async function dumpTable(
  db: AnyDb,
  table: TableInfo,
  path: string,
  onRow?: (row: Record<string, unknown>) => void,
): Promise<{ rows: number; sha256: string }> {
  const columns = table.columns.map((column) => column.name);
  const keyed = table.primaryKey.length > 0;
  const order = keyed ? table.primaryKey : columns;
  const orderBy = sql.join(order.map((column) => sql.ref(column)));
  const out = createWriteStream(path);
  const hash = createHash('sha256');
  let rows = 0;
  let last: Record<string, unknown> | undefined;
  try {
    for (;;) {
      const after =
        keyed && last !== undefined
          ? sql`WHERE (${orderBy}) > (${sql.join(order.map((column) => last?.[column]))})`
          : sql``;
      const skip = keyed ? sql`` : sql`OFFSET ${rows}`;
      const { rows: page } = await sql<Record<string, unknown>>`
        SELECT * FROM ${sql.table(table.name)} ${after} ORDER BY ${orderBy} LIMIT ${rowsPerPage} ${skip}`.execute(db);
      for (const row of page) {
        const line = rowLine(Object.fromEntries(columns.map((column) => [column, valueToJson(row[column])])));
        hash.update(line);
        if (!out.write(line)) await drained(out);
        onRow?.(row);
      }
      rows += page.length;
      last = page.at(-1);
      if (page.length < rowsPerPage) break;
    }
  } finally {
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
  return { rows, sha256: hash.digest('hex') };
}

/** The files the storage no longer has. A size that differs from the row's is no deletion but
 * damage, and stops the backup. */
async function missingFiles(storage: FileStorage, files: FileEntry[]): Promise<FileEntry[]> {
  const missing: FileEntry[] = [];
  for (const file of files) {
    const found = await storage.stat(file.key);
    if (found === undefined) missing.push(file);
    else if (found.size !== file.size) {
      throw new Error(
        `hosted file ${file.key} in ${storage.description} has ${found.size} bytes, not the ${file.size} its row records`,
      );
    }
  }
  return missing;
}

/** stored_files.jsonl again, without the rows of files left out. */
async function dropFileRows(
  scratch: string,
  tables: Record<string, TableEntry>,
  leftOut: Set<string>,
): Promise<TableEntry> {
  const path = join(scratch, `${filesTable}.jsonl`);
  const lines = (await readFile(path, 'utf8')).split('\n').filter((line) => line !== '');
  const kept = lines.filter((line) => !leftOut.has(String((JSON.parse(line) as { key: unknown }).key)));
  const text = kept.map((line) => `${line}\n`).join('');
  await writeFile(path, text);
  const entry = tables[filesTable] as TableEntry;
  return { ...entry, rows: kept.length, sha256: createHash('sha256').update(text).digest('hex') };
}

async function writeArchive(path: string, manifest: Manifest, scratch: string, storage: FileStorage): Promise<void> {
  const pack = tar.pack();
  // Destroyed with the error that stops the archive, which the caller throws; not an event for
  // nobody to hear.
  pack.on('error', () => undefined);
  // It holds password and session hashes and the audit log: the server's user's alone
  // (docs/backups.md#file-permissions).
  const out = createWriteStream(path, { mode: 0o600 });
  const bytes = Readable.from(pack, { objectMode: false });
  const written = isGzipName(path.replace(/\.tmp$/, '')) ? pipeline(bytes, createGzip(), out) : pipeline(bytes, out);
  // Awaited below. A failure of the output (no such folder, a full disk) also breaks the entries,
  // whose own error then says less than this one.
  let outputError: unknown;
  written.catch((error: unknown) => (outputError ??= error));
  const mtime = new Date(manifest.created_at);
  try {
    const text = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    await addEntry(pack, { name: manifestName, size: text.byteLength, mtime }, Readable.from([text]), {
      what: manifestName,
    });
    for (const [name, table] of Object.entries(manifest.tables)) {
      const file = join(scratch, `${name}.jsonl`);
      const { size } = await stat(file);
      await addEntry(pack, { name: tablePath(name), size, mtime }, createReadStream(file), {
        what: tablePath(name),
        sha256: table.sha256,
      });
    }
    for (const file of manifest.files) {
      const body = await storage.open(file.key);
      if (body === undefined) {
        throw new FileVanishedError(
          `hosted file ${file.key} was deleted from ${storage.description} while it was copied`,
        );
      }
      try {
        await addEntry(pack, { name: filePath(file.key), size: file.size, mtime }, body, {
          what: `hosted file ${file.key} in ${storage.description}`,
          sha256: file.sha256,
        });
      } finally {
        body.destroy();
      }
    }
    pack.finalize();
    await written;
  } catch (error) {
    const first = outputError;
    pack.destroy(error as Error);
    await written.catch(() => undefined);
    throw first ?? error;
  }
  await syncPath(path);
}

/** fsync: the archive (or, for a directory, its rename) is on disk before the command says so. */
async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
