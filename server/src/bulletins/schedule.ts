/**
 * Scheduled announcements become public at their time on every server by themselves: nothing
 * is written then, so no change notice comes, and cached answers made before would keep them
 * hidden. So each server asks, once a second, whether a publication time has passed since it
 * last asked, and if so marks content as changed in its own cache: a scheduled announcement
 * appears within a second of its time, wherever and however it was scheduled. The same check
 * unpublishes and unpins the announcements whose end times have come (end-times.ts).
 *
 * It also empties the trash: at start and every `trashSweepMs` after, announcements deleted more
 * than 30 days ago are purged with their revisions, with nobody signed in (docs/console.md#trash).
 */
import type { Kysely } from 'kysely';
import { recordAudit } from '../accounts/repository.js';
import type { ContentChanges } from '../db/changes.js';
import type { Database } from '../db/schema.js';
import { endDueBulletins } from './end-times.js';
import { visibleBulletins } from './repository.js';
import { purgeExpired, trashCutoff } from './trash.js';

interface Logger {
  error(object: object, message: string): void;
}

export const scheduleCheckMs = 1000;
/** How often each server looks for announcements past their 30 days in the trash: a purge
 * comes at most this late, and costs one delete an hour. */
export const trashSweepMs = 60 * 60_000;

export interface Schedule {
  /** Runs one check now (tests drive the schedule with it, and with the clock). */
  check(): Promise<void>;
  stop(): void;
}

export function watchSchedule(
  db: Kysely<Database>,
  changes: ContentChanges,
  log: Logger,
  clock: () => Date = () => new Date(),
): Schedule {
  let since = clock().toISOString();
  let sweptAt = -Infinity;
  let running: Promise<void> | undefined;
  const once = async () => {
    const now = clock().toISOString();
    try {
      const due = await visibleBulletins(db, now).select('id').where('created_at', '>', since).limit(1).execute();
      const ended = await endDueBulletins(db, now);
      if (due.length > 0 || ended > 0) changes.changed();
      since = now;
      if (clock().getTime() - sweptAt >= trashSweepMs) {
        sweptAt = clock().getTime();
        await emptyTrash(db, sweptAt);
      }
    } catch (error) {
      log.error({ err: error }, 'looking for scheduled announcements, end times or an expired trash failed');
    }
  };
  const check = () => {
    running ??= once().finally(() => (running = undefined));
    return running;
  };
  const timer = setInterval(() => void check(), scheduleCheckMs).unref();
  return { check, stop: () => clearInterval(timer) };
}

async function emptyTrash(db: Kysely<Database>, nowMs: number): Promise<void> {
  for (const row of await purgeExpired(db, trashCutoff(nowMs))) {
    await recordAudit(db, {
      actor: 'schedule',
      action: 'bulletin.purge',
      target: String(row.id),
      before: { id: row.id, title: row.title, deleted_at: row.deleted_at },
    });
  }
}
