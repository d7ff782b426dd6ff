import { downloadPlatforms, type DownloadPlatform } from '@chat-site/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type DbHandle = Kysely<Database>;

/** One more download of `os` on `day`. A single upsert, so concurrent downloads on any number of
 * servers sharing the database never lose a count. */
export async function countDownload(db: DbHandle, os: DownloadPlatform, day: string): Promise<void> {
  await db
    .insertInto('download_counts')
    .values({ day, os, downloads: 1 })
    .onConflict((conflict) =>
      conflict.columns(['day', 'os']).doUpdateSet((eb) => ({ downloads: eb('download_counts.downloads', '+', 1) })),
    )
    .execute();
}

export type DayCounts = { day: string; total: number } & Record<DownloadPlatform, number>;

/** The sum of `days`, per platform and in all: the total row of the numbers screen and of
 * `admin stats`. */
export function totalOfDays(days: DayCounts[]): Omit<DayCounts, 'day'> {
  const sum = (key: DownloadPlatform | 'total') => days.reduce((total, day) => total + day[key], 0);
  return {
    ...(Object.fromEntries(downloadPlatforms.map((os) => [os, sum(os)])) as Record<DownloadPlatform, number>),
    total: sum('total'),
  };
}

/** Downloads per platform for each day from `firstDay` to `lastDay` (inclusive), newest first;
 * days without downloads are there with zeros. */
export async function downloadsPerDay(db: DbHandle, firstDay: string, lastDay: string): Promise<DayCounts[]> {
  const rows = await db
    .selectFrom('download_counts')
    .select(['day', 'os', 'downloads'])
    .where('day', '>=', firstDay)
    .where('day', '<=', lastDay)
    .execute();
  // PostgreSQL may hand integers back as strings; Number() reads both.
  const found = new Map(rows.map((row) => [`${row.day} ${row.os}`, Number(row.downloads)]));
  return daysBetween(firstDay, lastDay).map((day) => {
    const counts = Object.fromEntries(downloadPlatforms.map((os) => [os, found.get(`${day} ${os}`) ?? 0]));
    const total = downloadPlatforms.reduce((sum, os) => sum + (counts[os] ?? 0), 0);
    return { day, ...counts, total } as DayCounts;
  });
}

/** Calendar days as "YYYY-MM-DD", newest first. */
export function daysBetween(firstDay: string, lastDay: string): string[] {
  const days: string[] = [];
  const first = Date.parse(`${firstDay}T00:00:00Z`);
  for (let day = Date.parse(`${lastDay}T00:00:00Z`); day >= first; day -= 86_400_000) {
    days.push(new Date(day).toISOString().slice(0, 10));
  }
  return days;
}

/** The calendar day `daysBefore` days before `day`. */
export function dayBefore(day: string, daysBefore: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - daysBefore * 86_400_000).toISOString().slice(0, 10);
}
