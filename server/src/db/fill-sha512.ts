import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { FileStorage } from '../storage/index.js';

/**
 * Gives every hosted file its SHA-512 (base64), for the desktop apps' update info
 * (docs/releases.md#update-checks): each file is streamed from the storage once. A file the
 * storage no longer has keeps a null hash, as does every file when there is no storage to read.
 */
export async function fillSha512(db: Kysely<unknown>, storage: FileStorage | undefined): Promise<number> {
  if (storage === undefined) return 0;
  const { rows } = await sql<{ key: string }>`SELECT key FROM stored_files WHERE sha512 IS NULL ORDER BY key`.execute(
    db,
  );
  let filled = 0;
  for (const { key } of rows) {
    const body = await storage.open(key);
    if (body === undefined) continue;
    const hash = createHash('sha512');
    for await (const chunk of body) hash.update(chunk as Buffer);
    await sql`UPDATE stored_files SET sha512 = ${hash.digest('base64')} WHERE key = ${key}`.execute(db);
    filled++;
  }
  return filled;
}
