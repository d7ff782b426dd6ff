import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, StoredFileRow } from '../db/schema.js';
import { nowIso } from '../lib/time.js';

export interface StoredFile {
  key: string;
  /** The path to write into announcement HTML or a package entry: relative to {api}/v1/. */
  path: string;
  size: number;
  sha256: string;
}

export const keyPattern = /^[0-9a-f]{16}-[A-Za-z0-9._-]{1,120}$/;

export function previewPath(key: string): string {
  return `file/preview/${key}`;
}

/** Stores a file under a key made of its hash and a cleaned name, so a key never changes
 * meaning and the file can be cached forever. Storing the same bytes twice is a no-op. */
export async function storeFile(
  db: Kysely<Database>,
  file: { name: string; contentType: string; data: Uint8Array },
): Promise<StoredFile> {
  const sha256 = createHash('sha256').update(file.data).digest('hex');
  const cleanName =
    file.name
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[-.]+/, '')
      .slice(-120) || 'file';
  const key = `${sha256.slice(0, 16)}-${cleanName}`;
  await db
    .insertInto('stored_files')
    .values({
      key,
      name: cleanName,
      content_type: file.contentType,
      size: file.data.byteLength,
      sha256,
      data: file.data,
      created_at: nowIso(),
    })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
  return { key, path: previewPath(key), size: file.data.byteLength, sha256 };
}

export async function findFile(db: Kysely<Database>, key: string): Promise<StoredFileRow | undefined> {
  if (!keyPattern.test(key)) return undefined;
  return db.selectFrom('stored_files').selectAll().where('key', '=', key).executeTakeFirst();
}

/** Size and hash of a hosted file, without reading its bytes. */
export async function describeFile(
  db: Kysely<Database>,
  key: string,
): Promise<{ size: number; sha256: string } | undefined> {
  if (!keyPattern.test(key)) return undefined;
  const row = await db.selectFrom('stored_files').select(['size', 'sha256']).where('key', '=', key).executeTakeFirst();
  return row === undefined ? undefined : { size: Number(row.size), sha256: row.sha256 };
}
