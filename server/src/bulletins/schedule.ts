/**
 * Scheduled announcements become public at their time on every server by themselves: nothing
 * is written then, so no change notice comes, and cached answers made before would keep them
 * hidden. So each server asks, once a second, whether a publication time has passed since it
 * last asked, and if so marks content as changed in its own cache: a scheduled announcement
 * appears within a second of its time, wherever and however it was scheduled.
 *
 * The same check empties the trash: at start and every `trashSweepMs` after, announcements
 * deleted more than 30 days ago are purged with their revisions, with nobody signed in
 * (docs/console.md#trash).
 */
import type { Kysely } from 'kysely';
import { recordAudit } from '../accounts/repository.js';
import type { ContentChanges } from '../db/changes.js';
import type { Database } from '../db/schema.js';
import { nowIso } from '../lib/time.js';
import { visibleBulletins } from './repository.js';
import { purgeExpired, trashCutoff } from './trash.js';

interface Logger {
  error(object: object, message: string): void;
}

export const scheduleCheckMs = 1000;
/** How often each server looks for announcements past their 30 days in the trash: a purge
 * comes at most this late, and costs one delete an hour. */
export const trashSweepMs = 60 * 60_000;

export function watchSchedule(db: Kysely<Database>, changes: ContentChanges, log: Logger): () => void {
  let since = nowIso();
  let sweptAt = -Infinity;
  let checking = false;
  const check = async () => {
    if (checking) return;
    checking = true;
    const now = nowIso();
    try {
      const due = await visibleBulletins(db, now).select('id').where('created_at', '>', since).limit(1).execute();
      if (due.length > 0) changes.changed();
      since = now;
      if (Date.now() - sweptAt >= trashSweepMs) {
        sweptAt = Date.now();
        await emptyTrash(db);
      }
    } catch (error) {
      log.error({ err: error }, 'looking for scheduled announcements or an expired trash failed');
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(() => void check(), scheduleCheckMs).unref();
  return () => clearInterval(timer);
}

async function emptyTrash(db: Kysely<Database>): Promise<void> {
  for (const row of await purgeExpired(db, trashCutoff(Date.now()))) {
    await recordAudit(db, {
      actor: 'schedule',
      action: 'bulletin.purge',
      target: String(row.id),
      before: { id: row.id, title: row.title, deleted_at: row.deleted_at },
    });
  }
}
