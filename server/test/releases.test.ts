/**
 * Releases (docs/behaviour.md#releases): the history kept per platform, the console's cards,
 * publishing from a hosted file or an outside URL (an APK's version from its manifest), rolling
 * back, and the package list and /dl following at once, on this server and another on the same
 * database. On SQLite, and on PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { InstallPackageList } from '@chat-site/contract';
import { Release, ReleaseCards, type ReleaseCard } from '@chat-site/contract/admin';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { connect } from '../src/db/connect.js';
import { migrate } from '../src/db/migrations.js';
import { storageFor } from '../src/storage/index.js';
import {
  bearer,
  hostFile,
  createTestDatabase,
  readUntil,
  repoRoot,
  startTestApp,
  testEnv,
  type TestApp,
} from './helpers.js';
import { checked } from './checked.js';

const apk = readFileSync(join(repoRoot, 'server/test/fixtures/xingliao-5.1.0.apk'));
const notApk = readFileSync(join(repoRoot, 'server/test/fixtures/no-manifest.apk'));

/** Download addresses a browser, a page or the public list would read as something else. */
const badAddresses = [
  'https:evil.example/x.exe',
  'https:\\\\evil.example\\x.exe',
  'https://evil.example\\x.exe',
  ' https://dl.example.com/a.exe',
  'https://dl.example.com/a b.exe',
  'https://dl.example.com/a\tb.exe',
  'https://dl.example.com/a.exe\n',
  'https://dl.example.com/"><svg onload=alert(1)>',
  'https://dl.example.com/"><svg/onload=alert(1)>',
  '"><svg/onload=alert(1)>',
  'https://dl.example.com/\u202egpj.exe',
];

let t: TestApp;
before(async () => {
  t = await startTestApp({ demo: true });
});
after(() => t.close());

const post = (url: string, payload: object, headers: Record<string, string> = bearer) =>
  t.app.inject({ method: 'POST', url, headers, payload });

const upload = (name: string, body: Buffer) => hostFile(t.app, name, body);

async function cards(app = t.app): Promise<ReleaseCard[]> {
  const res = await app.inject({ url: '/v1/admin/releases', headers: bearer });
  assert.equal(res.statusCode, 200, res.body);
  return checked(ReleaseCards, res).platforms;
}

const card = async (os: string) => (await cards()).find((entry) => entry.os === os) as ReleaseCard;

async function publicEntry(os: string, app = t.app) {
  const list = (await app.inject({ url: '/v1/common/getInstallPackageAddrs' })).json<InstallPackageList>();
  return list.find((entry) => entry.OS === os);
}

const dlTarget = async (os: string, app = t.app) =>
  (await app.inject({ url: `/dl/${os}`, headers: { 'user-agent': 'Mozilla/5.0' } })).headers.location;

describe('the release cards', () => {
  test('one card per platform: what is served now, from where, and its history', async () => {
    const all = await cards();
    assert.deepEqual(
      all.map((entry) => entry.os),
      ['android', 'ios', 'windows', 'mac'],
    );
    for (const entry of all) {
      assert.ok(entry.current !== null, entry.os);
      assert.equal(entry.current.served_from, 'hosted');
      assert.match(entry.current.served_url, /^http:\/\/localhost\/v1\/file\/preview\//);
      assert.equal(entry.history.length, 1, 'the demo content is the first release');
      assert.equal(entry.history[0]?.current, true);
      assert.equal(entry.history[0]?.created_by, 'demo');
      assert.equal(entry.current.release_id, entry.history[0]?.id);
    }
  });

  test('with the CDN on, hosted packages are served from the bucket', async () => {
    const set = (use_cdn: number) =>
      t.app.inject({
        method: 'PUT',
        url: '/v1/admin/appconfig',
        headers: bearer,
        payload: { use_cdn, common_cdn_bucket_url: 'https://cdn.example.com/b' },
      });
    assert.equal((await set(1)).statusCode, 200);
    const current = (await card('windows')).current;
    assert.equal(current?.served_from, 'cdn');
    assert.match(current?.served_url ?? '', /^https:\/\/cdn\.example\.com\/b\/[0-9a-f]{16}-/);
    assert.equal((await set(0)).statusCode, 200);
  });
});

describe('publishing a release', () => {
  test('an APK takes its version from its manifest; the package list and /dl switch at once', async () => {
    const key = await upload('xingliao-5.1.0.apk', apk);
    const res = await post('/v1/admin/releases', {
      os: 'android',
      file_key: key,
      notes: '修复了若干问题',
      released_at: '2026-11-20 10:00:00',
      min_os: 'Android 8.0',
    });
    assert.equal(res.statusCode, 201, res.body);
    const release = checked(Release, res);
    assert.equal(release.version, '5.1.0');
    assert.equal(release.file_key, key);
    assert.equal(release.size, apk.byteLength);
    assert.equal(release.current, true);
    assert.equal(release.created_by, 'admin-token');
    const entry = await publicEntry('android');
    assert.equal(entry?.version, '5.1.0');
    assert.equal(entry?.DownloadURL, `http://localhost/v1/file/preview/${key}`);
    assert.equal(entry?.released_at, '2026-11-20 10:00:00');
    assert.equal(await dlTarget('android'), `http://localhost/v1/file/preview/${key}`);
    const android = await card('android');
    assert.equal(android.current?.notes, '修复了若干问题');
    assert.equal(android.current?.min_os, 'Android 8.0');
    assert.deepEqual(
      android.history.map((entry) => [entry.version, entry.current]),
      [
        ['5.1.0', true],
        ['5.0.1', false],
      ],
    );
  });

  test("a version that is not the APK's own is refused, naming both; nothing changes", async () => {
    const key = await upload('xingliao-5.1.0.apk', apk);
    const before = await card('android');
    const res = await post('/v1/admin/releases', { os: 'android', file_key: key, version: '5.2.0' });
    assert.equal(res.statusCode, 400);
    assert.match(
      res.json<{ msg: string }>().msg,
      /^body\/version: 5\.2\.0 is not the version of xingliao-5\.1\.0\.apk, whose manifest says 5\.1\.0 \(versionCode 510/,
    );
    assert.deepEqual(await card('android'), before);
    const same = await post('/v1/admin/releases', { os: 'android', file_key: key, version: '5.1.0' });
    assert.equal(same.statusCode, 201, 'the same version given is fine');
  });

  test('an APK without a readable manifest needs the version given', async () => {
    const key = await upload('broken.apk', notApk);
    const res = await post('/v1/admin/releases', { os: 'android', file_key: key });
    assert.equal(res.statusCode, 400);
    assert.match(
      res.json<{ msg: string }>().msg,
      /^body\/version: broken\.apk has no AndroidManifest\.xml.*give the version$/,
    );
    const given = await post('/v1/admin/releases', { os: 'android', file_key: key, version: '5.1.1' });
    assert.equal(given.statusCode, 201, given.body);
  });

  test('from an outside URL, with the size and hash given', async () => {
    const sha256 = 'a'.repeat(64);
    const res = await post('/v1/admin/releases', {
      os: 'windows',
      url: 'https://dl.example.com/xingliao-setup-5.1.0.exe',
      version: '5.1.0',
      size: 123456,
      sha256,
    });
    assert.equal(res.statusCode, 201, res.body);
    const windows = await card('windows');
    assert.equal(windows.current?.served_from, 'outside');
    assert.equal(windows.current?.served_url, 'https://dl.example.com/xingliao-setup-5.1.0.exe');
    assert.equal(windows.current?.sha256, sha256);
    assert.equal(await dlTarget('windows'), 'https://dl.example.com/xingliao-setup-5.1.0.exe');
  });

  test('bad requests are 400s that name the field and change nothing', async () => {
    const apkKey = await upload('xingliao-5.1.0.apk', apk);
    const before = await cards();
    const cases: [object, RegExp][] = [
      [{ os: 'windows' }, /^body: give the package as file_key .* or as url/],
      [{ os: 'windows', file_key: apkKey, url: 'https://dl.example.com/a.exe' }, /^body: give the package/],
      [{ os: 'windows', url: 'ftp://dl.example.com/a.exe' }, /^body\/url: must be an http\(s\) URL/],
      [{ os: 'windows', file_key: apkKey }, /^body\/file_key: xingliao-5\.1\.0\.apk is not a windows package/],
      [{ os: 'mac', file_key: '0123456789abcdef-none.dmg' }, /^body\/file_key: there is no hosted file/],
      [
        { os: 'android', file_key: apkKey, sha256: 'b'.repeat(64) },
        /^body: size and sha256 are those of the uploaded file/,
      ],
      [
        { os: 'android', file_key: apkKey, released_at: '2026-02-30 10:00:00' },
        /^body\/released_at: .* not a real date/,
      ],
      [{ os: 'linux', url: 'https://dl.example.com/a' }, /os/],
      [{ os: 'windows', url: 'apk/setup.exe' }, /^body\/url: must be an http\(s\) URL/],
      ...badAddresses.map((url): [object, RegExp] => [{ os: 'windows', url }, /^body\/url: must /]),
    ];
    for (const [payload, message] of cases) {
      const res = await post('/v1/admin/releases', payload);
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      assert.match(res.json<{ msg: string }>().msg, message, JSON.stringify(payload));
    }
    assert.deepEqual(await cards(), before);
  });
});

describe('rolling back', () => {
  test('makes an earlier release current in one step; the audit log has both changes', async () => {
    const mac = await card('mac');
    const first = mac.history.at(-1) as Release;
    const published = await post('/v1/admin/releases', {
      os: 'mac',
      url: 'https://dl.example.com/xingliao-5.2.0.dmg',
      version: '5.2.0',
    });
    assert.equal(published.statusCode, 201);
    assert.equal((await publicEntry('mac'))?.version, '5.2.0');
    const back = await post(`/v1/admin/releases/${first.id}/rollback`, {});
    assert.equal(back.statusCode, 200, back.body);
    assert.equal(checked(Release, back).current, true);
    const entry = await publicEntry('mac');
    assert.equal(entry?.version, first.version);
    assert.equal(entry?.sha256, first.sha256);
    assert.equal((await card('mac')).current?.release_id, first.id);
    const rollbackBefore = await t.db.kysely
      .selectFrom('audit_log')
      .select('before')
      .where('action', '=', 'release.rollback')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const beforeEntry = JSON.parse(rollbackBefore.before ?? 'null') as { os: string; version: string };
    assert.deepEqual([beforeEntry.os, beforeEntry.version], ['mac', '5.2.0'], 'the entry it replaced');
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'target', 'actor'])
      .where('action', 'like', 'release.%')
      .orderBy('id', 'desc')
      .limit(2)
      .execute();
    assert.deepEqual(audit, [
      { action: 'release.rollback', target: `release:${first.id}`, actor: 'admin-token' },
      { action: 'release.publish', target: `release:${checked(Release, published).id}`, actor: 'admin-token' },
    ]);
  });

  test('an unknown release is a 404; one whose file was deleted since is a 409', async () => {
    assert.equal((await post('/v1/admin/releases/999999/rollback', {})).statusCode, 404);
    const key = await upload('old.dmg', Buffer.concat([Buffer.alloc(600), Buffer.from('koly'), Buffer.alloc(508)]));
    const old = await post('/v1/admin/releases', { os: 'mac', file_key: key, version: '4.0.0' });
    assert.equal(old.statusCode, 201, old.body);
    await post('/v1/admin/releases', { os: 'mac', url: 'https://dl.example.com/xingliao-5.3.0.dmg', version: '5.3.0' });
    const removed = await t.app.inject({ method: 'DELETE', url: `/v1/admin/files/${key}`, headers: bearer });
    assert.equal(removed.statusCode, 204, 'a file no entry serves may be deleted');
    const back = await post(`/v1/admin/releases/${checked(Release, old).id}/rollback`, {});
    assert.equal(back.statusCode, 409);
    assert.equal((await publicEntry('mac'))?.version, '5.3.0');
  });
});

describe('the package list admin API and other servers', () => {
  test('PUT /v1/admin/packages refuses the addresses releases refuse, by the same rule', async () => {
    for (const url of badAddresses) {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/v1/admin/packages',
        headers: bearer,
        payload: [{ OS: 'windows', DownloadURL: url }],
      });
      assert.equal(res.statusCode, 400, url);
      assert.match(res.json<{ msg: string }>().msg, /^body\/0\/DownloadURL must /, url);
    }
  });

  test('PUT /v1/admin/packages still works, and records a release only for entries that changed', async () => {
    const before = await cards();
    const list = (await t.app.inject({ url: '/v1/common/getInstallPackageAddrs' })).json<InstallPackageList>();
    const edited = list.map((entry) =>
      entry.OS === 'ios'
        ? { ...entry, version: '5.0.2' }
        : { ...entry, DownloadURL: entry.DownloadURL.replace(/^http:\/\/localhost\/v1\//, '') },
    );
    const res = await t.app.inject({ method: 'PUT', url: '/v1/admin/packages', headers: bearer, payload: edited });
    assert.equal(res.statusCode, 200, res.body);
    const after = await cards();
    for (const entry of after) {
      const earlier = before.find((other) => other.os === entry.os) as ReleaseCard;
      assert.equal(entry.history.length, earlier.history.length + (entry.os === 'ios' ? 1 : 0), entry.os);
    }
    assert.equal((await card('ios')).current?.version, '5.0.2');
  });

  test('another server on the same database serves a new release at once', async () => {
    const otherDb = connect(t.config.database);
    const other = await buildApp({ config: t.config, db: otherDb });
    try {
      assert.ok((await publicEntry('windows', other)) !== undefined, 'the other server has the list cached');
      const res = await post('/v1/admin/releases', {
        os: 'windows',
        url: 'https://dl.example.com/xingliao-setup-6.0.0.exe',
        version: '6.0.0',
      });
      assert.equal(res.statusCode, 201);
      const entry = await readUntil(
        other,
        () => publicEntry('windows', other),
        (seen) => seen?.version === '6.0.0',
      );
      assert.equal(entry?.version, '6.0.0');
      assert.equal(await dlTarget('windows', other), 'https://dl.example.com/xingliao-setup-6.0.0.exe');
    } finally {
      await other.close();
      await otherDb.close();
    }
  });
});

describe('who may', () => {
  test('an editor neither sees nor publishes releases', async () => {
    const { addUser } = await import('../src/accounts/repository.js');
    const { hashPassword } = await import('../src/accounts/passwords.js');
    await addUser(t.db.kysely, { name: 'ed', role: 'editor', passwordHash: await hashPassword('ed-password-123') });
    const signIn = await post(
      '/v1/admin/session',
      { name: 'ed', password: 'ed-password-123' },
      { origin: 'http://localhost' },
    );
    const cookie = signIn.cookies.find((c) => c.name === 'chat_site_session')?.value ?? '';
    const headers = { cookie: `chat_site_session=${cookie}`, origin: 'http://localhost' };
    assert.equal((await t.app.inject({ url: '/v1/admin/releases', headers })).statusCode, 403);
    const res = await post('/v1/admin/releases', { os: 'mac', url: 'https://dl.example.com/x.dmg' }, headers);
    assert.equal(res.statusCode, 403);
  });
});

test('the migration makes the package entries already there the first release of their platform', async () => {
  const database = await createTestDatabase();
  const config = loadConfig(testEnv(database));
  const db = connect(config.database);
  try {
    await migrate(db, storageFor(config.storage), '0006_bulletin_drafts');
    await sql`insert into install_packages (os, download_url, version, size, sha256, released_at, release_notes_url, updated_at)
      values ('windows', 'https://dl.example.com/setup.exe', '4.9.0', 1000, null, '2026-01-01T00:00:00.000Z', null,
        '2026-01-02T00:00:00.000Z')`.execute(db.kysely);
    await migrate(db, storageFor(config.storage));
    const releases = await db.kysely.selectFrom('releases').selectAll().execute();
    assert.equal(releases.length, 1);
    assert.equal(releases[0]?.version, '4.9.0');
    assert.equal(releases[0]?.created_by, 'migration');
    assert.equal(Number(releases[0]?.size), 1000);
    const entry = await db.kysely.selectFrom('install_packages').selectAll().executeTakeFirstOrThrow();
    assert.equal(entry.release_id, releases[0]?.id);
  } finally {
    await db.close();
    await database.drop();
  }
});
