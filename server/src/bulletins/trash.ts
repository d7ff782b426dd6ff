/**
 * The trash: a deleted announcement stays restorable for `trashDays` days, then every server's
 * schedule check purges it, with its revisions (docs/console.md#trash).
 */
import type { Kysely } from 'kysely';
import type { BulletinRow, Database } from '../db/schema.js';

type DbHandle = Kysely<Database>;

export const trashDays = 30;
export const trashWindowMs = trashDays * 86_400_000;

/** The instant before which a deletion is past restoring, seen at `now`. */
export const trashCutoff = (now: number) => new Date(now - trashWindowMs).toISOString();

/** One page of the trash, most recently deleted first. */
export async function trashPage(
  db: DbHandle,
  page: { index: number; size: number },
): Promise<{ count: number; rows: BulletinRow[] }> {
  const base = db.selectFrom('bulletins').where('deleted_at', 'is not', null);
  const [counted, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
    base
      .selectAll()
      .orderBy('deleted_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.size)
      .offset((page.index - 1) * page.size)
      .execute(),
  ]);
  return { count: Number(counted.count), rows };
}

/** Forgets one deleted announcement for good (its revisions go by cascade); answers the row,
 * or undefined when it is not in the trash. */
export async function purgeBulletin(db: DbHandle, id: number): Promise<BulletinRow | undefined> {
  return db
    .deleteFrom('bulletins')
    .where('id', '=', id)
    .where('deleted_at', 'is not', null)
    .returningAll()
    .executeTakeFirst();
}

/** Forgets every announcement deleted before `before`; answers those this call removed (when
 * several servers sweep at once, each row is answered to one of them). */
export async function purgeExpired(db: DbHandle, before: string): Promise<BulletinRow[]> {
  return db.deleteFrom('bulletins').where('deleted_at', '<', before).returningAll().execute();
}
