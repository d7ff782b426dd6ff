import { readAppConfig, resolveDownloadUrl, type OperatingSystem, type SiteConfig } from '@chat-site/contract';
import type { Kysely } from 'kysely';
import type { Database, InstallPackageRow } from '../db/schema.js';
import { listPackages, toWirePackage } from '../packages/repository.js';
import { getAppConfig } from '../settings/repository.js';

export const appStoreUrl = (appId: string) => `https://apps.apple.com/app/id${appId}`;

export interface TargetContext {
  db: Kysely<Database>;
  site: SiteConfig;
  timeZone: string;
  /** {origin}/v1/, where hosted files are served. */
  apiBase: string;
  primaryHost: boolean;
}

/**
 * Where a stable download link of `os` leads right now, the same place the download screen's
 * button leads: the fixed APK on the primary domain, the App Store page for iOS, else the
 * package entry with the CDN applied exactly as the site applies it. Undefined when there is
 * none (no entry, or a platform the primary domain does not offer).
 */
export async function downloadTarget(os: OperatingSystem, context: TargetContext): Promise<string | undefined> {
  const { db, site } = context;
  if (context.primaryHost) return os === 'android' ? site.androidApkUrl : undefined;
  if (os === 'ios') return appStoreUrl(site.iosAppStoreId);
  const row = (await listPackages(db)).find((entry) => entry.os === os);
  if (row === undefined) return undefined;
  return entryTarget(row, context);
}

/** Where an entry (the platform's, or one made of an earlier release) leads, the CDN applied. */
export async function entryTarget(row: InstallPackageRow, context: TargetContext): Promise<string | undefined> {
  const { db, site } = context;
  const wire = toWirePackage(row, context.timeZone, context.apiBase);
  const cdn = readAppConfig(await getAppConfig(db));
  return resolveDownloadUrl(wire.DownloadURL, { base: site.appUrl, cdn }) || undefined;
}
