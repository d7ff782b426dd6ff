/**
 * Announcements that stop by themselves (docs/behaviour.md#announcements-that-stop-by-themselves):
 * at its unpublish_at a published announcement becomes a draft again, at its unpin_at a pinned
 * one is unpinned. The schedule check of every server runs this; each change is one
 * conditional UPDATE, so when several servers find the same one due, exactly one of them makes
 * the change and writes its audit entry. The write itself tells the other servers (the change
 * feed, db/changes.ts); the caller tells its own cache.
 */
import type { Kysely } from 'kysely';
import { recordAudit } from '../accounts/repository.js';
import type { Database } from '../db/schema.js';
import { publishedBulletins } from './repository.js';

/** Who the audit log names for these changes. */
export const schedulerActor = 'scheduler';

/** Makes every change due at `now` (ISO UTC); answers how many it made. */
export async function endDueBulletins(db: Kysely<Database>, now: string): Promise<number> {
  return (await unpublishDue(db, now)) + (await unpinDue(db, now));
}

/** The announcements an unpublish_at applies to, and those an unpin_at applies to. */
const unpublishable = (db: Kysely<Database>) => publishedBulletins(db);
const unpinnable = (db: Kysely<Database>) =>
  db.selectFrom('bulletins').where('deleted_at', 'is', null).where('pinned', '=', 1);

/** The first end time to come or overdue (ISO UTC), if any announcement has one. */
export async function nextEndTime(db: Kysely<Database>): Promise<string | undefined> {
  const unpublish = await unpublishable(db)
    .select((eb) => eb.fn.min('unpublish_at').as('at'))
    .executeTakeFirst();
  const unpin = await unpinnable(db)
    .select((eb) => eb.fn.min('unpin_at').as('at'))
    .executeTakeFirst();
  const times = [unpublish?.at, unpin?.at].filter((at) => at != null);
  return times.length === 0 ? undefined : times.reduce((a, b) => (a < b ? a : b));
}

async function unpublishDue(db: Kysely<Database>, now: string): Promise<number> {
  const due = await unpublishable(db)
    .select(['id', 'title', 'unpublish_at'])
    .where('unpublish_at', '<=', now)
    .execute();
  let made = 0;
  for (const { id, title, unpublish_at } of due) {
    const result = await db
      .updateTable('bulletins')
      .set((eb) => ({ state: 'draft', unpublish_at: null, updated_at: now, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('state', '=', 'published')
      .where('unpublish_at', '=', unpublish_at)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) continue;
    made++;
    await recordAudit(db, {
      actor: schedulerActor,
      action: 'bulletin.unpublish',
      target: String(id),
      before: { title, unpublish_at },
    });
  }
  return made;
}

async function unpinDue(db: Kysely<Database>, now: string): Promise<number> {
  const due = await unpinnable(db).select(['id', 'title', 'unpin_at']).where('unpin_at', '<=', now).execute();
  let made = 0;
  for (const { id, title, unpin_at } of due) {
    const result = await db
      .updateTable('bulletins')
      .set((eb) => ({ pinned: 0, unpin_at: null, updated_at: now, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('pinned', '=', 1)
      .where('unpin_at', '=', unpin_at)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) continue;
    made++;
    await recordAudit(db, {
      actor: schedulerActor,
      action: 'bulletin.unpin',
      target: String(id),
      before: { title, unpin_at },
    });
  }
  return made;
}
