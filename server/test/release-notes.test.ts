/**
 * A release's notes and minimum OS on the public install package list (docs/behaviour.md#releases),
 * and the admin list's PUT taking back what the public list answers. On SQLite, and on PostgreSQL
 * with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { InstallPackageList } from '@chat-site/contract';
import { bearer, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
before(async () => {
  t = await startTestApp({ demo: true });
});
after(() => t.close());

async function publicList(): Promise<InstallPackageList> {
  const res = await t.app.inject({ url: '/v1/common/getInstallPackageAddrs' });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<InstallPackageList>();
}

const entryOf = async (os: string) => (await publicList()).find((entry) => entry.OS === os);

async function historyLength(os: string): Promise<number> {
  const res = await t.app.inject({ url: '/v1/admin/releases', headers: bearer });
  const platforms = res.json<{ platforms: { os: string; history: unknown[] }[] }>().platforms;
  return platforms.find((card) => card.os === os)?.history.length ?? 0;
}

const publish = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/v1/admin/releases', headers: bearer, payload });

const put = (payload: object) => t.app.inject({ method: 'PUT', url: '/v1/admin/packages', headers: bearer, payload });

const notes = '修复了消息偶尔重复的问题\n启动更快';

test("a published release's notes and minimum OS appear in the public list", async () => {
  const res = await publish({
    os: 'windows',
    url: 'https://dl.example.com/xingliao-setup-5.2.0.exe',
    version: '5.2.0',
    notes,
    min_os: 'Windows 10',
  });
  assert.equal(res.statusCode, 201, res.body);
  const windows = await entryOf('windows');
  assert.equal(windows?.notes, notes);
  assert.equal(windows?.min_os, 'Windows 10');
});

test('a release with neither leaves both out of its entry', async () => {
  const res = await publish({ os: 'mac', url: 'https://dl.example.com/xingliao-5.2.0.dmg', version: '5.2.0' });
  assert.equal(res.statusCode, 201, res.body);
  const mac = await entryOf('mac');
  assert.equal(mac?.version, '5.2.0');
  assert.equal('notes' in (mac ?? {}), false);
  assert.equal('min_os' in (mac ?? {}), false);
});

test('the public list sent back to the admin PUT as it is changes nothing', async () => {
  const before = await publicList();
  const historyBefore = await historyLength('windows');
  const res = await put(before);
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.json(), before);
  assert.deepEqual(await publicList(), before);
  assert.equal(await historyLength('windows'), historyBefore);
});

test('an entry sent without notes or minimum OS keeps those of its release', async () => {
  const list = await publicList();
  const bare = list.map(({ notes: _notes, min_os: _minOs, ...entry }) => entry);
  const edited = bare.map((entry) => (entry.OS === 'windows' ? { ...entry, version: '5.2.1' } : entry));
  assert.equal((await put(edited)).statusCode, 200);
  const windows = await entryOf('windows');
  assert.equal(windows?.version, '5.2.1');
  assert.equal(windows?.notes, notes);
  assert.equal(windows?.min_os, 'Windows 10');
});

test('an entry sent with other notes or minimum OS records a new release with them', async () => {
  const historyBefore = await historyLength('windows');
  const list = await publicList();
  const edited = list.map((entry) =>
    entry.OS === 'windows' ? { ...entry, notes: '小修', min_os: 'Windows 11' } : entry,
  );
  assert.equal((await put(edited)).statusCode, 200);
  const windows = await entryOf('windows');
  assert.equal(windows?.notes, '小修');
  assert.equal(windows?.min_os, 'Windows 11');
  assert.equal(await historyLength('windows'), historyBefore + 1);
});
