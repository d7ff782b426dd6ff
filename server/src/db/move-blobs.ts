import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import type { FileStorage } from '../storage/index.js';

/**
 * Copies every file kept in `stored_files.data` into the file storage under its key, one at a
 * time (only one file's bytes in memory), and checks each against its recorded SHA-256 twice:
 * the bytes read from the database, then the bytes read back from the storage. Any mismatch
 * stops the migration before the column is dropped, so nothing is lost.
 */
export async function moveBlobsToStorage(db: Kysely<unknown>, storage: FileStorage | undefined): Promise<void> {
  const { rows } = await sql<{ key: string; sha256: string; content_type: string }>`
    SELECT key, sha256, content_type FROM stored_files ORDER BY key`.execute(db);
  if (rows.length === 0) return;
  if (storage === undefined) throw new Error('moving hosted files out of the database needs the file storage');
  for (const { key, sha256, content_type: contentType } of rows) {
    const { rows: blobs } = await sql<{ data: Uint8Array }>`
      SELECT data FROM stored_files WHERE key = ${key}`.execute(db);
    const data = blobs[0]?.data;
    if (data === undefined) continue;
    const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (sha256Of(bytes) !== sha256) throw new Error(`hosted file ${key} in the database does not match its SHA-256`);
    const staged = await storage.stage(
      Readable.from([bytes]),
      { maxBytes: Number.MAX_SAFE_INTEGER, allowEmpty: true },
      contentType,
    );
    if (staged.sha256 !== sha256) {
      await staged.discard();
      throw new Error(`hosted file ${key} changed on its way to ${storage.description}`);
    }
    await staged.commit(key);
    const copy = await storage.open(key);
    if (copy === undefined || (await streamSha256(copy)) !== sha256) {
      throw new Error(`hosted file ${key} read back from ${storage.description} does not match its SHA-256`);
    }
  }
}

function sha256Of(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function streamSha256(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
