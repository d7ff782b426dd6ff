/**
 * The backup archive (docs/backups.md): one tar file, gzip-compressed when its name
 * ends in .gz or .tgz, holding
 *
 *   manifest.json        what the archive holds (Manifest below), always the first entry
 *   tables/<name>.jsonl  every row of a table, one JSON object per line
 *   files/<key>          the bytes of every hosted file the database names
 *
 * Rows are written as JSON with the dialect's differences taken out (valueToJson), so an
 * archive made on SQLite loads into PostgreSQL and back.
 */
import { fileKeyPattern, manifestProblem, sqlNamePattern } from './manifest-schema.js';

export const archiveFormat = 'chat-site-backup';
export const formatVersion = 1;

export interface Manifest {
  format: typeof archiveFormat;
  format_version: number;
  created_at: string;
  /** The release that wrote it: server/package.json's version, and the commit it was built from
   * (backup/release.ts; absent from archives made before it was recorded). */
  app_version: string;
  app_commit?: string;
  /** Where it was made: `sqlite` or `postgres`. */
  source_dialect: string;
  /** The migrations the database had run, in order: the schema the rows fit. */
  migrations: string[];
  tables: Record<string, TableEntry>;
  files: FileEntry[];
  /** Files the database named when the snapshot was taken but the storage no longer had when
   * they were to be copied (deleted meanwhile); their rows are not in the archive either. */
  skipped_files: { key: string; reason: string }[];
}

export interface TableEntry {
  rows: number;
  /** SHA-256 of tables/<name>.jsonl. */
  sha256: string;
  columns: string[];
  /** The next value of the table's id sequence, so that a restored site never reuses an id. */
  next_id?: number;
}

export interface FileEntry {
  key: string;
  size: number;
  sha256: string;
  content_type: string;
}

export const manifestName = 'manifest.json';
export const tablePath = (table: string) => `tables/${table}.jsonl`;
export const filePath = (key: string) => `files/${key}`;

export function isGzipName(path: string): boolean {
  return /\.(gz|tgz)$/i.test(path);
}

/** A value as a driver returns it, as JSON: bytes become {"$base64": ...}, times ISO strings.
 * Booleans stay booleans; the reader turns them into 0/1 where the column is a number. */
export function valueToJson(value: unknown): unknown {
  if (value instanceof Uint8Array) return { $base64: Buffer.from(value).toString('base64') };
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/** The value to bind for a column of `type` in the target database. */
export function jsonToValue(value: unknown, type: string, dialect: string): unknown {
  if (value !== null && typeof value === 'object' && '$base64' in value) {
    return Buffer.from(String((value as { $base64: unknown }).$base64), 'base64');
  }
  // A PostgreSQL json column's value arrives as an object; SQLite keeps such values as text.
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  const booleanColumn = dialect === 'postgres' && type === 'boolean';
  if (typeof value === 'boolean' && !booleanColumn) return value ? 1 : 0;
  if (typeof value === 'number' && booleanColumn) return value !== 0;
  return value;
}

/** The archive is not one this command wrote, or it was damaged since. */
export class ArchiveError extends Error {
  override name = 'ArchiveError';
}

/** Checks what manifest.json says before anything is written: its format, then every field
 * (./manifest-schema.ts). */
export function parseManifest(text: string): Manifest {
  let manifest: Partial<Manifest>;
  try {
    manifest = JSON.parse(text) as Partial<Manifest>;
  } catch {
    throw new ArchiveError('manifest.json is not valid JSON');
  }
  if (manifest === null || typeof manifest !== 'object') throw new ArchiveError(`not a ${archiveFormat} archive`);
  if (manifest.format !== archiveFormat) throw new ArchiveError(`not a ${archiveFormat} archive`);
  if (manifest.format_version !== formatVersion) {
    throw new ArchiveError(
      `archive format version ${manifest.format_version} is not ${formatVersion}, the one this build reads`,
    );
  }
  if (!Array.isArray(manifest.migrations) || !isObject(manifest.tables) || !Array.isArray(manifest.files)) {
    throw new ArchiveError('manifest.json lacks migrations, tables or files');
  }
  // Names become paths in a scratch directory and keys in the storage: nothing that could leave them.
  const badTable = Object.keys(manifest.tables).find((name) => !tableName.test(name));
  if (badTable !== undefined) throw new ArchiveError(`manifest.json names a table "${badTable}"`);
  const badKey = manifest.files.find((file) => !isObject(file) || !fileKey.test(String(file.key)));
  if (badKey !== undefined) throw new ArchiveError(`manifest.json names a file "${String(badKey?.key)}"`);
  const problem = manifestProblem(manifest);
  if (problem !== undefined) throw new ArchiveError(`manifest.json ${problem}`);
  return manifest as Manifest;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const tableName = new RegExp(sqlNamePattern);
const fileKey = new RegExp(fileKeyPattern);
