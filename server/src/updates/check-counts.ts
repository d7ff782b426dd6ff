/**
 * Who has updated (docs/releases.md#who-has-updated): each update check counted per day, platform
 * and the version the app reports, and each install once a day among them. A version the server
 * never published for the platform is counted as 'other', so that what apps send cannot grow the
 * table; an install is told apart by download_visitors' salted hash of the day, never kept past it.
 */
import type { OperatingSystem } from '@chat-site/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { daysBetween } from '../downloads/repository.js';
import { firstToday, type Client } from '../downloads/visitors.js';
import { compareParsed, parseVersion } from './version.js';

type DbHandle = Kysely<Database>;

export const otherVersion = 'other';

/** The published version the client's equals (as the update checks compare), or 'other'. */
export function versionGroup(client: string, published: readonly string[]): string {
  const parsed = parseVersion(client);
  if (parsed === undefined) return otherVersion;
  return (
    published.find((version) => {
      const release = parseVersion(version);
      return release !== undefined && compareParsed(release, parsed) === 0;
    }) ?? otherVersion
  );
}

/** Every version published for the platform, newest release first. */
export async function publishedVersions(db: DbHandle, os: OperatingSystem): Promise<string[]> {
  const rows = await db
    .selectFrom('releases')
    .select('version')
    .where('os', '=', os)
    .where('version', 'is not', null)
    .orderBy('id', 'desc')
    .execute();
  return [...new Set(rows.flatMap((row) => (row.version === null ? [] : [row.version])))];
}

/** One more check of `os` at `version` (already grouped) on `day`; one install more when it is
 * this client's first of that version today. One upsert, so servers sharing a database never
 * lose a count. */
export async function countCheck(
  db: DbHandle,
  check: { os: OperatingSystem; version: string; day: string; client: Client },
): Promise<void> {
  const { os, version, day } = check;
  const first = await firstToday(db, `update ${os} ${version}`, day, check.client);
  const installs = first ? 1 : 0;
  await db
    .insertInto('update_check_counts')
    .values({ day, os, version, checks: 1, installs })
    .onConflict((conflict) =>
      conflict.columns(['day', 'os', 'version']).doUpdateSet((eb) => ({
        checks: eb('update_check_counts.checks', '+', 1),
        installs: eb('update_check_counts.installs', '+', installs),
      })),
    )
    .execute();
}

export interface VersionDay {
  day: string;
  /** Installs seen that day by version; versions without a check are left out. */
  installs: Record<string, number>;
  checks: number;
}

/** A platform's installs per version for each day from `firstDay` to `lastDay`, oldest first. */
export async function versionsPerDay(
  db: DbHandle,
  os: OperatingSystem,
  firstDay: string,
  lastDay: string,
): Promise<VersionDay[]> {
  const rows = await db
    .selectFrom('update_check_counts')
    .select(['day', 'version', 'checks', 'installs'])
    .where('os', '=', os)
    .where('day', '>=', firstDay)
    .where('day', '<=', lastDay)
    .execute();
  return daysBetween(firstDay, lastDay)
    .reverse()
    .map((day) => {
      const today = rows.filter((row) => row.day === day);
      // PostgreSQL may hand integers back as strings; Number() reads both.
      return {
        day,
        installs: Object.fromEntries(today.map((row) => [row.version, Number(row.installs)])),
        checks: today.reduce((sum, row) => sum + Number(row.checks), 0),
      };
    });
}
