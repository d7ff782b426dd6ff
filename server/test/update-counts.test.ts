/**
 * Who has updated (docs/releases.md#who-has-updated): update checks counted per day, platform and
 * reported version, each install once a day, versions never published as `other`, nothing of an
 * address kept past its day. Days pass on a test clock. On SQLite, and on PostgreSQL with
 * TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { UpdateStats } from '@chat-site/contract/admin';
import { bearer, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let now = Date.parse('2026-11-20T04:00:00Z');
before(async () => {
  t = await startTestApp({ env: { TIME_ZONE: 'Asia/Shanghai' }, clock: () => new Date(now) });
});
after(() => t.close());

async function publish(version: string): Promise<void> {
  const body = { os: 'android', url: `https://example.com/xingliao-${version}.apk`, version };
  const res = await t.app.inject({ method: 'POST', url: '/v1/admin/releases', headers: bearer, payload: body });
  assert.equal(res.statusCode, 201, res.body);
}

/** Install `n` (its own address) checks, reporting `version`, through the app's or Tauri's route. */
async function check(n: number, version: string, route = 'appversion/android'): Promise<void> {
  const res = await t.app.inject({
    url: `/v1/common/${route}/${encodeURIComponent(version)}`,
    remoteAddress: `127.1.${n >> 8}.${n & 255}`,
    headers: { 'user-agent': 'okhttp/4.12.0' },
  });
  assert.ok(res.statusCode === 200 || res.statusCode === 204, res.body);
}

const stats = async (os = 'android') => {
  const res = await t.app.inject({ url: `/v1/admin/stats/updates?os=${os}&days=7`, headers: bearer });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<UpdateStats>();
};

test('installs per day and reported version; unpublished versions are other', async () => {
  await publish('5.0.0');
  await publish('5.1.0');
  for (let n = 0; n < 30; n += 1) {
    await check(n, '5.0.0');
    await check(n, 'v5.0'); // the same version, written another way, the same install
  }
  for (let n = 30; n < 35; n += 1) await check(n, '9.9.9');
  await check(35, 'latest');
  await check(36, '5.1.0-beta.1');

  now += 86_400_000;
  for (let n = 0; n < 20; n += 1) await check(n, '5.1.0');
  for (let n = 20; n < 30; n += 1) await check(n, '5.0.0');

  const found = await stats();
  assert.equal(found.current, '5.1.0');
  assert.deepEqual(found.versions, ['5.1.0', '5.0.0', 'other']);
  assert.equal(found.to, '2026-11-21');
  const [dayOne, dayTwo] = found.days.slice(-2);
  assert.deepEqual(dayOne, { day: '2026-11-20', installs: { '5.0.0': 30, other: 7 }, checks: 67 });
  assert.deepEqual(dayTwo, { day: '2026-11-21', installs: { '5.1.0': 20, '5.0.0': 10 }, checks: 30 });
  assert.equal(found.days.length, 7);
});

test("a day's install hashes are gone the next day; no address is stored", async () => {
  now += 86_400_000;
  await check(1, '5.1.0');
  const visitors = await t.db.kysely.selectFrom('download_visitors').select(['day', 'visitor']).execute();
  assert.deepEqual([...new Set(visitors.map((row) => row.day))], ['2026-11-22']);
  const counts = await t.db.kysely.selectFrom('update_check_counts').selectAll().execute();
  assert.ok(counts.length > 0);
  assert.ok(!JSON.stringify([visitors, counts]).includes('127.1.'), 'an address was stored');
});

test("Tauri's checks count for their platform", async () => {
  await t.app.inject({
    method: 'POST',
    url: '/v1/admin/releases',
    headers: bearer,
    payload: { os: 'mac', url: 'https://example.com/xingliao-5.0.0.dmg', version: '5.0.0' },
  });
  await check(1, '4.0.0', 'updater/darwin');
  await check(2, '5.0.0', 'updater/darwin');
  const mac = await stats('mac');
  assert.deepEqual(mac.days.at(-1)?.installs, { '5.0.0': 1, other: 1 });
});
