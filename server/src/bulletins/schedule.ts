/**
 * Scheduled announcements become public at their time on every server by themselves: nothing
 * is written then, so no change notice comes, and cached answers made before would keep them
 * hidden. So each server checks whether a publication time has passed since it last checked, and
 * if so marks content as changed in its own cache: a scheduled announcement appears within a
 * second of its time, wherever and however it was scheduled. The same check unpublishes and
 * unpins the announcements whose end times have come (end-times.ts).
 *
 * A timer looks once a second, but a check asks the database only when it could find something:
 * each check also reads the next time anything is due, and until that time comes or content
 * changes (the change feed, db/changes.ts, which also brings other servers' writes) the timer
 * does nothing: an idle server sends no queries and makes next to no garbage, which would fill
 * the young generation's pages at rest (docs/memory.md#memory-at-rest). While the change
 * feed cannot be trusted (PostgreSQL's LISTEN connection is down), every tick checks.
 *
 * It also empties the trash: at start and every `trashSweepMs` after, announcements deleted more
 * than 30 days ago are purged with their revisions, with nobody signed in (docs/console.md#trash).
 */
import type { Kysely } from 'kysely';
import { recordAudit } from '../accounts/repository.js';
import type { ContentChanges } from '../db/changes.js';
import type { Database } from '../db/schema.js';
import { endDueBulletins, nextEndTime } from './end-times.js';
import { publishedBulletins, visibleBulletins } from './repository.js';
import { purgeExpired, trashCutoff } from './trash.js';

interface Logger {
  error(object: object, message: string): void;
}

export const scheduleCheckMs = 1000;
/** How often each server looks for announcements past their 30 days in the trash: a purge
 * comes at most this late, and costs one delete an hour. */
export const trashSweepMs = 60 * 60_000;

const nothingToDo = Promise.resolve();

export interface Schedule {
  /** Runs one check now (tests drive the schedule with it, and with the clock). */
  check(): Promise<void>;
  /** What the timer runs: a check if anything could be due or may have changed, else nothing. */
  tick(): Promise<void>;
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
  // What the last check that went through left: the content generation it saw, and when the
  // next check has something to do (a publication, an end time, the trash sweep).
  let seenGeneration: number | undefined;
  let nextCheckMs = -Infinity;
  const once = async () => {
    const now = clock().toISOString();
    nextCheckMs = -Infinity;
    try {
      const due = await visibleBulletins(db, now).select('id').where('created_at', '>', since).limit(1).execute();
      const ended = await endDueBulletins(db, now);
      if (due.length > 0 || ended > 0) changes.changed();
      since = now;
      if (clock().getTime() - sweptAt >= trashSweepMs) {
        sweptAt = clock().getTime();
        await emptyTrash(db, sweptAt);
      }
      // Read before the query: a change committed after this reading moves the generation, and
      // the next tick checks again.
      const generation = changes.generation();
      const next = await nextDueMs(db, now);
      seenGeneration = generation;
      nextCheckMs = Math.min(next, sweptAt + trashSweepMs);
    } catch (error) {
      log.error({ err: error }, 'looking for scheduled announcements, end times or an expired trash failed');
    }
  };
  const check = () => {
    running ??= once().finally(() => (running = undefined));
    return running;
  };
  // Not async: a tick at rest makes no promise of its own.
  const tick = () => {
    const quiet =
      running === undefined &&
      changes.trustworthy() &&
      changes.generation() === seenGeneration &&
      clock().getTime() < nextCheckMs;
    return quiet ? nothingToDo : check();
  };
  // A tick reads the content generation before any promise: a database gone from under the app
  // (a lost SQLite file, a test's deliberately closed one) throws there, and is logged as a check's
  // failure would be rather than thrown out of the timer.
  const timer = setInterval(() => {
    try {
      void tick();
    } catch (error) {
      log.error({ err: error }, 'looking for scheduled announcements, end times or an expired trash failed');
    }
  }, scheduleCheckMs).unref();
  return { check, tick, stop: () => clearInterval(timer) };
}

/**
 * When a check next finds something to do (ms): the first publication time after `now`, or the
 * first end time (end-times.ts). Infinity when nothing is scheduled.
 */
async function nextDueMs(db: Kysely<Database>, now: string): Promise<number> {
  const publication = await publishedBulletins(db)
    .select((eb) => eb.fn.min('created_at').as('at'))
    .where('created_at', '>', now)
    .executeTakeFirst();
  const times = [publication?.at, await nextEndTime(db)].filter((at) => at != null);
  return Math.min(...times.map((at) => Date.parse(at)));
}

/** Deletes the expired trash and writes each deletion to the audit log in one transaction: no
 * announcement goes without its entry, and nobody reads the one before the other. */
async function emptyTrash(db: Kysely<Database>, nowMs: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const row of await purgeExpired(trx, trashCutoff(nowMs))) {
      await recordAudit(trx, {
        actor: 'schedule',
        action: 'bulletin.purge',
        target: String(row.id),
        before: { id: row.id, title: row.title, deleted_at: row.deleted_at },
      });
    }
  });
}
