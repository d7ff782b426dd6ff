/**
 * The stored rows of releases' update payloads (docs/releases.md#update-payloads): written with
 * their release, read for the console, the update checks and the blockmap's address.
 */
import type { Kysely } from 'kysely';
import type { Database, ReleasePayloadRow } from '../db/schema.js';
import type { NewPayload } from './payloads.js';

type DbHandle = Kysely<Database>;

/** Stores the payloads of a release just written (within its transaction), in their order. */
export async function storePayloads(db: DbHandle, releaseId: number, payloads: NewPayload[]): Promise<void> {
  if (payloads.length === 0) return;
  await db
    .insertInto('release_payloads')
    .values(
      payloads.map((payload) => ({
        release_id: releaseId,
        role: payload.role,
        arch: payload.arch,
        download_url: payload.downloadUrl,
        file_key: payload.fileKey,
        size: payload.size,
        sha256: payload.sha256,
        sha512: payload.sha512,
        signature: payload.signature,
      })),
    )
    .execute();
}

/** The payloads of the given releases (every release without `ids`), each release's in order. */
export async function listPayloads(db: DbHandle, ids?: number[]): Promise<ReleasePayloadRow[]> {
  if (ids !== undefined && ids.length === 0) return [];
  let query = db.selectFrom('release_payloads').selectAll().orderBy('release_id').orderBy('id');
  if (ids !== undefined) query = query.where('release_id', 'in', ids);
  return query.execute();
}

/**
 * Where the blockmap of an electron payload is: electron-updater asks for it at the payload's
 * own address + `.blockmap`, and a hosted blockmap has a key of its own. Undefined when `key` is
 * no electron payload's or its release has no blockmap (for its architecture, or for all).
 */
export async function blockmapOf(db: DbHandle, key: string): Promise<string | undefined> {
  const electron = await db
    .selectFrom('release_payloads')
    .select(['release_id', 'arch'])
    .where('role', '=', 'electron')
    .where('file_key', '=', key)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (electron === undefined) return undefined;
  const blockmaps = await db
    .selectFrom('release_payloads')
    .select(['arch', 'download_url'])
    .where('release_id', '=', electron.release_id)
    .where('role', '=', 'electron_blockmap')
    .execute();
  const blockmap = blockmaps.find((row) => row.arch === electron.arch) ?? blockmaps.find((row) => row.arch === null);
  return blockmap?.download_url;
}
