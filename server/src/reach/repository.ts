/** The reads feeds, share pages and the sitemap need; announcements themselves are written by
 * the bulletins module. */
import type { Kysely } from 'kysely';
import { visibleBulletins } from '../bulletins/repository.js';
import type { BulletinRow, Database } from '../db/schema.js';

type DbHandle = Kysely<Database>;

/** Newest first by publish date, whether pinned or not: a feed is a timeline. */
export async function latestBulletins(db: DbHandle, limit: number): Promise<BulletinRow[]> {
  return visibleBulletins(db).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** Id and last change of the newest announcements, for the sitemap. */
export async function bulletinStamps(db: DbHandle, limit: number): Promise<{ id: number; updated_at: string }[]> {
  return visibleBulletins(db)
    .select(['id', 'updated_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The latest change to any public announcement, or undefined when there are none. */
export async function lastBulletinChange(db: DbHandle): Promise<string | undefined> {
  const row = await visibleBulletins(db)
    .select((eb) => eb.fn.max('updated_at').as('latest'))
    .executeTakeFirst();
  return row?.latest ?? undefined;
}
