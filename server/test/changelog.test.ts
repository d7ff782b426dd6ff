/**
 * The public changelog (docs/site.md#changelog): every published release of every platform,
 * newest first, in the update check's form, as JSON and as an Atom feed; on this server and on
 * another sharing its database. On SQLite, and on PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseFeed } from 'feedsmith';
import { buildApp } from '../src/app.js';
import { connect } from '../src/db/connect.js';
import { bearer, hostFile, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

type App = TestApp['app'];
const wireTime = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

interface Entry {
  app_version: string;
  os: string;
  is_force: number;
  update_desc: string;
  download_url: string;
  created_at: string;
  size: number | null;
}

async function publish(body: object): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/admin/releases', headers: bearer, payload: body });
  assert.equal(res.statusCode, 201, res.body);
}

async function changelog(app: App = t.app): Promise<Entry[]> {
  const res = await app.inject({ url: '/v1/common/changelog' });
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-type']), /application\/json/);
  return res.json<Entry[]>();
}

describe('the changelog as JSON', () => {
  test('is an empty list before anything is published', async () => {
    assert.deepEqual(await changelog(), []);
  });

  test('lists every release of every platform, newest first, in the update check form', async () => {
    const exe = Buffer.concat([Buffer.from('MZ', 'latin1'), Buffer.alloc(3 * 1024 * 1024, 7)]);
    const key = await hostFile(t.app, 'xingliao-setup-5.1.0.exe', exe);
    await publish({
      os: 'windows',
      url: 'https://dl.example.com/setup-5.0.exe',
      version: '5.0.0',
      released_at: '2025-01-02 03:04:05',
      size: 1000,
    });
    await publish({
      os: 'mac',
      url: 'https://dl.example.com/xl-4.0.dmg',
      version: '4.0.0',
      released_at: '2025-03-01 08:00:00',
    });
    await publish({
      os: 'ios',
      url: 'https://apps.apple.com/app/id1',
      version: '3.1',
      notes: 'iOS 修复',
      released_at: '2025-06-01 12:00:00',
    });
    await publish({
      os: 'android',
      url: 'https://dl.example.com/xl-1.9.apk',
      version: '1.9.0',
      released_at: '2025-05-01 09:30:00',
    });
    await publish({ os: 'android', url: 'https://dl.example.com/no-version.apk' });
    await publish({ os: 'windows', file_key: key, version: '5.1.0', notes: '新功能\n- 更快', force_update: true });

    const list = await changelog();
    assert.deepEqual(
      list.map((entry) => `${entry.os} ${entry.app_version}`),
      ['windows 5.1.0', 'ios 3.1', 'android 1.9.0', 'mac 4.0.0', 'windows 5.0.0'],
      'newest first by release date; a release without a version is left out',
    );
    for (const entry of list) {
      assert.deepEqual(Object.keys(entry).sort(), [
        'app_version',
        'created_at',
        'download_url',
        'is_force',
        'os',
        'size',
        'update_desc',
      ]);
      assert.match(entry.created_at, wireTime);
    }
    const [latest, ios, , , windows] = list as [Entry, Entry, Entry, Entry, Entry];
    assert.equal(latest.is_force, 1);
    assert.equal(latest.update_desc, '新功能\n- 更快');
    assert.equal(latest.size, exe.length, "a hosted file's own size");
    assert.match(latest.download_url, new RegExp(`^http://localhost(:\\d+)?/v1/file/preview/${key}$`));
    assert.deepEqual(ios, {
      ...ios,
      is_force: 0,
      update_desc: 'iOS 修复',
      size: null,
      created_at: '2025-06-01 12:00:00',
    });
    assert.deepEqual(windows, {
      app_version: '5.0.0',
      os: 'windows',
      is_force: 0,
      update_desc: '',
      download_url: 'https://dl.example.com/setup-5.0.exe',
      created_at: '2025-01-02 03:04:05',
      size: 1000,
    });
  });

  test("answers in the update check's own form: the same fields as appversion's answer", async () => {
    const check = await t.app.inject({ url: '/v1/common/appversion/windows/1.0.0' });
    const [latest] = await changelog();
    const fields: Partial<Entry> = { ...latest };
    delete fields.size;
    assert.deepEqual(fields, check.json());
  });

  test('a release published through one server is listed at once by a second on the same database', async () => {
    const other = connect(t.config.database);
    const second = await buildApp({ config: t.config, db: other });
    try {
      const before = await changelog(second); // now cached on the second server
      await publish({ os: 'mac', url: 'https://dl.example.com/xl-4.1.dmg', version: '4.1.0', notes: 'Mac 新版' });
      const afterwards = await changelog(second);
      assert.equal(afterwards.length, before.length + 1);
      assert.equal(afterwards[0]?.app_version, '4.1.0');
      assert.equal(afterwards[0]?.os, 'mac');
    } finally {
      await second.close();
      await other.close();
    }
  });

  test('is answered with an ETag, and 304 when it has not changed', async () => {
    const first = await t.app.inject({ url: '/v1/common/changelog' });
    const etag = String(first.headers.etag);
    const again = await t.app.inject({ url: '/v1/common/changelog', headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 304);
  });
});

function atomOf(xml: string) {
  const parsed = parseFeed(xml);
  assert.equal(parsed.format, 'atom');
  return parsed.feed as Extract<ReturnType<typeof parseFeed>, { format: 'atom' }>['feed'];
}

describe('the changelog as an Atom feed', () => {
  test('has one entry per release, newest first, titled with platform and version, notes as content', async () => {
    const res = await t.app.inject({ url: '/changelog.atom', headers: { host: 'chat.example.com' } });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/atom\+xml/);
    const feed = atomOf(res.body);
    const list = await changelog();
    assert.equal(feed.entries?.length, list.length);
    assert.equal(feed.entries?.[0]?.title?.value, 'Mac 4.1.0');
    assert.equal(feed.entries?.[0]?.content?.value, 'Mac 新版');
    assert.equal(feed.entries?.[1]?.title?.value, 'Windows 5.1.0');
    assert.equal(feed.entries?.[1]?.content?.value, '新功能\n- 更快');
    assert.deepEqual(feed.entries?.[0]?.links?.[0]?.href, 'http://chat.example.com/#/changelog');
    assert.equal(new Set(feed.entries?.map((entry) => entry.id)).size, list.length, 'every entry its own id');
    const dates = feed.entries?.map((entry) => Date.parse(String(entry.updated))) ?? [];
    assert.deepEqual(
      [...dates].sort((a, b) => b - a),
      dates,
    );
    assert.equal(feed.updated, feed.entries?.[0]?.updated);
    assert.match(String(feed.entries?.[3]?.updated), /^2025-05-01T09:30:00[+-]\d{2}:\d{2}$/);
  });

  test('is linked from the head of the page', async () => {
    const page = (await t.app.inject({ url: '/' })).body;
    assert.match(
      page,
      /<link rel="alternate" type="application\/atom\+xml" title="[^"]*更新日志" href="\/changelog.atom">/,
    );
  });

  test('a site with no release still has a valid feed', async () => {
    const empty = await startTestApp();
    try {
      const feed = atomOf((await empty.app.inject('/changelog.atom')).body);
      assert.deepEqual(feed.entries ?? [], []);
      assert.ok(feed.updated);
    } finally {
      await empty.close();
    }
  });
});
