/**
 * Which downloads count (docs/public-api.md#stable-download-links): one per client, platform and
 * day. A client is its address (pipeline/admin-guard.ts clientKey: an IPv6 /64 as one) and its
 * User-Agent, kept only as an HMAC under the day's salt, a random value every server of the
 * database shares (one row of download_salts) and that nobody keeps past the day: the first
 * count of a new day deletes the earlier days' salts and hashes. The check is one insert that
 * does nothing when the hash is there, so servers sharing a database count a client once.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DownloadPlatform } from '@chat-site/contract';
import type { Database } from '../db/schema.js';
import { clientKey } from '../pipeline/admin-guard.js';

type DbHandle = Kysely<Database>;

export interface Client {
  address: string;
  userAgent: string;
}

/** This process's copy of each database's salt of the day: read from it once a day. */
const known = new WeakMap<DbHandle, { day: string; salt: string }>();

/** The day's salt, made by whichever server asks first; earlier days are forgotten then. */
async function saltOf(db: DbHandle, day: string): Promise<string> {
  const held = known.get(db);
  if (held?.day === day) return held.salt;
  await db
    .insertInto('download_salts')
    .values({ day, salt: randomBytes(32).toString('base64url') })
    .onConflict((conflict) => conflict.column('day').doNothing())
    .execute();
  const { salt } = await db
    .selectFrom('download_salts')
    .select('salt')
    .where('day', '=', day)
    .executeTakeFirstOrThrow();
  await forgetBefore(db, day);
  known.set(db, { day, salt });
  return salt;
}

/** Deletes every salt and hash of the days before `day`. */
export async function forgetBefore(db: DbHandle, day: string): Promise<void> {
  await db.deleteFrom('download_visitors').where('day', '<', day).execute();
  await db.deleteFrom('download_salts').where('day', '<', day).execute();
}

/** Whether this is `client`'s first download of `os` on `day`; records that it was. */
export async function firstDownloadToday(db: DbHandle, os: DownloadPlatform, day: string, client: Client) {
  return firstToday(db, os, day, client);
}

/** Whether this is `client`'s first of `what` on `day` (a platform's downloads, or an update
 * check's platform and version: updates/check-counts.ts); records that it was. */
export async function firstToday(db: DbHandle, what: string, day: string, client: Client): Promise<boolean> {
  const salt = await saltOf(db, day);
  const visitor = createHmac('sha256', salt)
    .update(`${clientKey(client.address)}\n${client.userAgent}`)
    .digest('base64url');
  const result = await db
    .insertInto('download_visitors')
    .values({ day, os: what, visitor })
    .onConflict((conflict) => conflict.columns(['day', 'os', 'visitor']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
