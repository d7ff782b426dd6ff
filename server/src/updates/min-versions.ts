/**
 * Each platform's lowest supported app version (最低支持版本): a client below it is told the
 * update is forced (docs/releases.md#update-checks). One settings document, so that every
 * server sees a change through the change feed like any other setting.
 */
import type { OperatingSystem } from '@chat-site/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { nowIso } from '../lib/time.js';

export type MinVersions = Partial<Record<OperatingSystem, string>>;

const key = 'min_versions';

export async function getMinVersions(db: Kysely<Database>): Promise<MinVersions> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row === undefined ? {} : (JSON.parse(row.value) as MinVersions);
}

/** Sets (or with null, clears) one platform's lowest supported version; answers the new document. */
export async function setMinVersion(
  db: Kysely<Database>,
  os: OperatingSystem,
  version: string | null,
): Promise<MinVersions> {
  return db.transaction().execute(async (trx) => {
    const others = Object.entries(await getMinVersions(trx)).filter(([platform]) => platform !== os);
    const next: MinVersions = Object.fromEntries(version === null ? others : [...others, [os, version]]);
    const row = { key, value: JSON.stringify(next), updated_at: nowIso() };
    await trx
      .insertInto('settings')
      .values(row)
      .onConflict((conflict) => conflict.column('key').doUpdateSet({ value: row.value, updated_at: row.updated_at }))
      .execute();
    return next;
  });
}
