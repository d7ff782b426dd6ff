/**
 * Scheduled announcements become public at their time on every server by themselves: nothing
 * is written then, so no change notice comes, and cached answers made before would keep them
 * hidden. So each server asks, once a second, whether a publication time has passed since it
 * last asked, and if so marks content as changed in its own cache: a scheduled announcement
 * appears within a second of its time, wherever and however it was scheduled.
 */
import type { Kysely } from 'kysely';
import type { ContentChanges } from '../db/changes.js';
import type { Database } from '../db/schema.js';
import { nowIso } from '../lib/time.js';
import { visibleBulletins } from './repository.js';

interface Logger {
  error(object: object, message: string): void;
}

export const scheduleCheckMs = 1000;

export function watchSchedule(db: Kysely<Database>, changes: ContentChanges, log: Logger): () => void {
  let since = nowIso();
  let checking = false;
  const check = async () => {
    if (checking) return;
    checking = true;
    const now = nowIso();
    try {
      const due = await visibleBulletins(db, now).select('id').where('created_at', '>', since).limit(1).execute();
      if (due.length > 0) changes.changed();
      since = now;
    } catch (error) {
      log.error({ err: error }, 'looking for scheduled announcements failed');
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(() => void check(), scheduleCheckMs).unref();
  return () => clearInterval(timer);
}
