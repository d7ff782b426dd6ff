import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OperatingSystem } from '@chat-site/contract';
import type { Kysely } from 'kysely';
import { createBulletin } from '../bulletins/repository.js';
import type { Database } from '../db/schema.js';
import { extensionOf, imageTypes, packageTypes } from '../files/content-types.js';
import { bytesBody, storeFile } from '../files/repository.js';
import type { FileStorage } from '../storage/index.js';
import { setPackage } from '../packages/repository.js';
import { claimDemoLoad, setAppConfig } from '../settings/repository.js';
import { serverRoot } from '../paths.js';
import { demoBulletins } from './bulletins.js';

const assetsDir = join(serverRoot, 'demo-assets');
const dayMs = 24 * 60 * 60 * 1000;

const demoPackages: Record<OperatingSystem, string> = {
  android: 'xingliao-android-demo.apk',
  ios: 'xingliao-ios-demo.ipa',
  windows: 'xingliao-windows-demo.exe',
  mac: 'xingliao-mac-demo.dmg',
};

/** The demo files are small placeholders, not real packages: they skip the upload checks. */
async function storeAsset(db: Kysely<Database>, storage: FileStorage, name: string): Promise<string> {
  const ext = extensionOf(name);
  const contentType = imageTypes[ext] ?? packageTypes[ext] ?? 'application/octet-stream';
  const data = readFileSync(join(assetsDir, name));
  const rules = { maxBytes: data.byteLength };
  return (await storeFile(db, storage, { name, contentType, body: bytesBody(data), rules, uploadedBy: null })).path;
}

/** Fills an empty database with the demo announcements, packages and app config. Runs at most
 * once per database; answers whether it loaded anything. */
export async function loadDemoContent(db: Kysely<Database>, storage: FileStorage, now = new Date()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await claimDemoLoad(trx))) return false;
    const existing = await trx
      .selectFrom('bulletins')
      .select('id')
      .union(trx.selectFrom('install_packages').select((eb) => eb.lit(0).as('id')))
      .limit(1)
      .execute();
    if (existing.length > 0) return false;

    const assetPaths = new Map<string, string>();
    for (const bulletin of [...demoBulletins].reverse()) {
      let content = bulletin.content;
      for (const [, name = ''] of content.matchAll(/\{\{asset:([^}]+)\}\}/g)) {
        if (!assetPaths.has(name)) assetPaths.set(name, await storeAsset(trx, storage, name));
        content = content.replaceAll(`{{asset:${name}}}`, () => assetPaths.get(name) ?? '');
      }
      const createdAt = new Date(now.getTime() - bulletin.daysAgo * dayMs - 2 * 60 * 60 * 1000);
      await createBulletin(trx, {
        title: bulletin.title,
        content,
        pinned: bulletin.pinned,
        createdAt: createdAt.toISOString(),
      });
    }
    for (const [os, name] of Object.entries(demoPackages) as [OperatingSystem, string][]) {
      await setPackage(
        trx,
        {
          os,
          downloadUrl: await storeAsset(trx, storage, name),
          version: '5.0.1',
          releasedAt: new Date(now.getTime() - 3 * dayMs).toISOString(),
          releaseNotesUrl: 'https://xingliao.example.com/release-notes/5.0.1',
        },
        'demo',
      );
    }
    await setAppConfig(trx, { use_cdn: 0, common_cdn_bucket_url: '' });
    return true;
  });
}
