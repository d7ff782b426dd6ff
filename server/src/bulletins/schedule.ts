/**
 * Scheduled announcements become public at their time on every server by themselves: nothing
 * is written then, so no change notice comes, and cached answers made before would keep them
 * hidden. So each server asks, once a second, whether a publication time has passed since it
 * last asked, and if so marks content as changed in its own cache: a scheduled announcement
 * appears within a second of its time, wherever and however it was scheduled. The same check
 * unpublishes and unpins the announcements whose end times have come (end-times.ts).
 */
import type { Kysely } from 'kysely';
import type { ContentChanges } from '../db/changes.js';
import type { Database } from '../db/schema.js';
import { endDueBulletins } from './end-times.js';
import { visibleBulletins } from './repository.js';

interface Logger {
  error(object: object, message: string): void;
}

export const scheduleCheckMs = 1000;

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
  let running: Promise<void> | undefined;
  const once = async () => {
    const now = clock().toISOString();
    try {
      const due = await visibleBulletins(db, now).select('id').where('created_at', '>', since).limit(1).execute();
      const ended = await endDueBulletins(db, now);
      if (due.length > 0 || ended > 0) changes.changed();
      since = now;
    } catch (error) {
      log.error({ err: error }, 'looking for scheduled announcements failed');
    }
  };
  const check = () => {
    running ??= once().finally(() => (running = undefined));
    return running;
  };
  const timer = setInterval(() => void check(), scheduleCheckMs).unref();
  return { check, stop: () => clearInterval(timer) };
}
