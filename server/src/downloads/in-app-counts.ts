/**
 * How much of the download traffic comes from the chat apps' built-in browsers
 * (docs/site.md#in-app-browsers): per day and app, the visits and the guides shown. One row
 * per day and app whatever the traffic, so no stream of requests grows the table.
 */
import type { InAppBrowser } from '@chat-site/contract/in-app';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type DbHandle = Kysely<Database>;

export const inAppEvents = ['visit', 'guide'] as const;
export type InAppEvent = (typeof inAppEvents)[number];

const columnOf = { visit: 'visits', guide: 'guides' } as const;

/** One more `event` from `app`'s browser on `day`: a single upsert, safe from any number of
 * servers at once. */
export async function countInApp(db: DbHandle, app: InAppBrowser, event: InAppEvent, day: string): Promise<void> {
  const column = columnOf[event];
  await db
    .insertInto('in_app_counts')
    .values({ day, app, visits: event === 'visit' ? 1 : 0, guides: event === 'guide' ? 1 : 0 })
    .onConflict((conflict) =>
      conflict.columns(['day', 'app']).doUpdateSet((eb) => ({ [column]: eb(`in_app_counts.${column}`, '+', 1) })),
    )
    .execute();
}

export interface InAppDay {
  visits: number;
  guides: number;
}

/** Each day's visits and guides from `firstDay` to `lastDay`, all apps together; days with none
 * are absent. */
export async function inAppPerDay(db: DbHandle, firstDay: string, lastDay: string): Promise<Map<string, InAppDay>> {
  const rows = await db
    .selectFrom('in_app_counts')
    .select((eb) => ['day', eb.fn.sum<number>('visits').as('visits'), eb.fn.sum<number>('guides').as('guides')])
    .where('day', '>=', firstDay)
    .where('day', '<=', lastDay)
    .groupBy('day')
    .execute();
  // PostgreSQL hands sums back as strings; Number() reads both.
  return new Map(rows.map((row) => [row.day, { visits: Number(row.visits), guides: Number(row.guides) }]));
}
