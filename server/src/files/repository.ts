import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database, StoredFileRow } from '../db/schema.js';
import { nowIso } from '../lib/time.js';
import type { FileStorage, IntakeRules } from '../storage/index.js';

export interface StoredFile {
  key: string;
  /** The path to write into announcement HTML or a package entry: relative to {api}/v1/. */
  path: string;
  size: number;
  sha256: string;
}

/** Who put a file there: an operator's name, `admin-token` (a script) or `cli` (the command line). */
export type Uploader = string;

export interface FileUpload {
  /** The name as given; kept for Content-Disposition, cleaned for the key. */
  name: string;
  contentType: string;
  body: Readable;
  rules: IntakeRules;
  uploadedBy: Uploader | null;
}

type DbHandle = Kysely<Database>;

export const keyPattern = /^[0-9a-f]{16}-[A-Za-z0-9._-]{1,120}$/;

export function previewPath(key: string): string {
  return `file/preview/${key}`;
}

/** The ASCII part of a key: letters, digits, dot, dash, underscore. */
export function cleanFileName(name: string): string {
  return (
    name
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[-.]+/, '')
      .slice(-120) || 'file'
  );
}

/** The name kept for downloads: no control characters, no path. */
function displayName(name: string): string {
  // eslint-disable-next-line no-control-regex
  return name.replace(/[\u0000-\u001f\u007f]/g, '').slice(-200) || 'file';
}

/**
 * Streams a file into storage under a key made of its hash and a cleaned name, so a key never
 * changes meaning and the file can be cached forever; then records what it is. Storing the same
 * bytes under the same name twice is a no-op. Nothing is kept when the upload fails.
 */
export async function storeFile(db: DbHandle, storage: FileStorage, upload: FileUpload): Promise<StoredFile> {
  const staged = await storage.stage(upload.body, upload.rules, upload.contentType);
  const key = `${staged.sha256.slice(0, 16)}-${cleanFileName(upload.name)}`;
  // Committed even when the key is known: the same bytes again, and a file lost from the
  // storage comes back.
  await staged.commit(key);
  try {
    await db
      .insertInto('stored_files')
      .values({
        key,
        name: displayName(upload.name),
        content_type: upload.contentType,
        size: staged.size,
        sha256: staged.sha256,
        sha512: staged.sha512,
        created_at: nowIso(),
        uploaded_by: upload.uploadedBy,
      })
      // The same bytes again: a row that lacks its SHA-512 (its file was missing when migration
      // 0008 ran) gets it.
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet({ sha512: staged.sha512 }).where('stored_files.sha512', 'is', null),
      )
      .execute();
  } catch (error) {
    // A file no row describes would never be served or listed: take it back.
    if ((await findFile(db, key).catch(() => undefined)) === undefined)
      await storage.delete(key).catch(() => undefined);
    throw error;
  }
  return { key, path: previewPath(key), size: staged.size, sha256: staged.sha256 };
}

/** Bytes already in memory (the demo files, small CLI uploads) stored the same way. */
export function bytesBody(data: Uint8Array): Readable {
  return Readable.from([Buffer.from(data.buffer, data.byteOffset, data.byteLength)]);
}

export async function findFile(db: DbHandle, key: string): Promise<StoredFileRow | undefined> {
  if (!keyPattern.test(key)) return undefined;
  return db.selectFrom('stored_files').selectAll().where('key', '=', key).executeTakeFirst();
}

/** Size and hashes of a hosted file, without reading its bytes. */
export async function describeFile(
  db: DbHandle,
  key: string,
): Promise<{ size: number; sha256: string; sha512: string | null } | undefined> {
  const row = await findFile(db, key);
  return row === undefined ? undefined : { size: Number(row.size), sha256: row.sha256, sha512: row.sha512 };
}

/** Newest first; key breaks ties so paging is stable. */
export async function listFilePage(
  db: DbHandle,
  page: { index: number; size: number },
): Promise<{ count: number; rows: StoredFileRow[] }> {
  const [counted, rows] = await Promise.all([
    db
      .selectFrom('stored_files')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('stored_files')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('key')
      .limit(page.size)
      .offset((page.index - 1) * page.size)
      .execute(),
  ]);
  return { count: Number(counted.count), rows };
}

/** What points at a hosted file: a package entry's download URL, an announcement's HTML. */
export type FileUser = { kind: 'package'; os: string } | { kind: 'bulletin'; id: number; title: string };

export async function fileUsers(db: DbHandle, key: string): Promise<FileUser[]> {
  const path = previewPath(key);
  // LIKE finds the candidates (its _ wildcard may match more); includes() decides.
  const pattern = `%${path}%`;
  const [packages, bulletins] = await Promise.all([
    db.selectFrom('install_packages').select(['os', 'download_url']).where('download_url', 'like', pattern).execute(),
    db
      .selectFrom('bulletins')
      .select(['id', 'title', 'content'])
      .where('content', 'like', pattern)
      // A deleted announcement no longer holds its files, even while its deletion can be undone.
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute(),
  ]);
  // An update payload of a release a platform serves now (docs/releases.md#update-payloads).
  const payloads = await db
    .selectFrom('release_payloads')
    .innerJoin('install_packages', 'install_packages.release_id', 'release_payloads.release_id')
    .select('install_packages.os as os')
    .where('release_payloads.file_key', '=', key)
    .execute();
  const serving = new Set([
    ...packages.filter((row) => usesPath(row.download_url, path)).map((row) => row.os),
    ...payloads.map((row) => row.os),
  ]);
  return [
    ...[...serving].map((os): FileUser => ({ kind: 'package', os })),
    ...bulletins
      .filter((row) => usesPath(row.content, path))
      .map((row): FileUser => ({ kind: 'bulletin', id: row.id, title: row.title })),
  ];
}

/** The path, not followed by more key characters (a key that extends this one is another file). */
function usesPath(text: string, path: string): boolean {
  let at = text.indexOf(path);
  while (at >= 0) {
    const next = text.charAt(at + path.length);
    if (!/[A-Za-z0-9._-]/.test(next)) return true;
    at = text.indexOf(path, at + 1);
  }
  return false;
}

export function describeUsers(users: FileUser[]): string {
  return users
    .map((user) => (user.kind === 'package' ? `the ${user.os} install package` : `announcement ${user.id}`))
    .join(', ');
}

/** Removes a file nothing uses. Answers the users instead when something does, or undefined when
 * there is no such file. The row goes first: a file without a row is never served. */
export async function removeFile(
  db: DbHandle,
  storage: FileStorage,
  key: string,
): Promise<{ removed: true } | { removed: false; users: FileUser[] } | undefined> {
  if ((await findFile(db, key)) === undefined) return undefined;
  const users = await fileUsers(db, key);
  if (users.length > 0) return { removed: false, users };
  await db.deleteFrom('stored_files').where('key', '=', key).execute();
  await storage.delete(key);
  return { removed: true };
}
