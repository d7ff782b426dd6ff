import type { AppConfig, RegionDocument } from '@chat-site/contract';
import { emptySiteListing, type SiteListing } from '@chat-site/contract/admin';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { nowIso } from '../lib/time.js';

type DbHandle = Kysely<Database>;

export const defaultAppConfig: AppConfig = { use_cdn: 0, common_cdn_bucket_url: '' };

async function readSetting<T>(db: DbHandle, key: string): Promise<T | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row === undefined ? undefined : (JSON.parse(row.value) as T);
}

async function writeSetting(db: DbHandle, key: string, value: unknown): Promise<void> {
  const row = { key, value: JSON.stringify(value), updated_at: nowIso() };
  await db
    .insertInto('settings')
    .values(row)
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value: row.value, updated_at: row.updated_at }))
    .execute();
}

export async function getAppConfig(db: DbHandle): Promise<AppConfig> {
  return (await readSetting<AppConfig>(db, 'appconfig')) ?? defaultAppConfig;
}

export async function setAppConfig(db: DbHandle, config: AppConfig): Promise<void> {
  await writeSetting(db, 'appconfig', config);
}

/** The stored region document, or undefined when the operator has not published one. */
export async function getRegionDocument(db: DbHandle): Promise<RegionDocument | undefined> {
  return readSetting<RegionDocument>(db, 'region');
}

export async function setRegionDocument(db: DbHandle, document: RegionDocument): Promise<void> {
  await writeSetting(db, 'region', document);
}

/** The site's listing (filings, store pages, search verification); all empty until saved. */
export async function getSiteListing(db: DbHandle): Promise<SiteListing> {
  return (await readSetting<SiteListing>(db, 'listing')) ?? emptySiteListing;
}

export async function setSiteListing(db: DbHandle, listing: SiteListing): Promise<void> {
  await writeSetting(db, 'listing', listing);
}

/** Claims the one-time demo load. Answers true for exactly one caller, even when several
 * servers start on the same empty database at once. */
export async function claimDemoLoad(db: DbHandle): Promise<boolean> {
  const result = await db
    .insertInto('settings')
    .values({ key: 'demo_content', value: JSON.stringify({ loadedAt: nowIso() }), updated_at: nowIso() })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}
