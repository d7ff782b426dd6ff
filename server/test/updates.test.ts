/**
 * The installed apps' update checks (docs/releases.md#update-checks): each wire form as the
 * family's clients read it (TangSengDaoDao's AppVersion, Tauri's dynamic server answer,
 * electron-updater's latest.yml read back with a YAML parser), from releases published through
 * the admin API, on this server and another on the same database. On SQLite, and on PostgreSQL
 * with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { buildApp } from '../src/app.js';
import { connect } from '../src/db/connect.js';
import { processMetrics } from '../src/lib/metrics-registry.js';
import { bearer, hostFile, readUntil, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

type App = TestApp['app'];
const exe = Buffer.concat([Buffer.from('MZ', 'latin1'), Buffer.alloc(5000, 7), Buffer.from('星聊 setup')]);
const wireTime = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
/** A real minisign signature (of other bytes; no key is configured here, release-signatures.test.ts
 * checks them against one). */
const signature =
  'dW50cnVzdGVkIGNvbW1lbnQ6IHNpZ25hdHVyZSBmcm9tIG1pbmlzaWduIHNlY3JldCBrZXkKUlVURG9kL1Y1eEY5eSt0akgzTDIzL1RmMFlxQS9GVy9yU25pa1phR1NYR29heWRnUjJISHdsQlJzdStTMFYzZUxGenRpbktROE1NRTk4RlpYVFlOK3cyOEthSXdrRlVzTEFVPQp0cnVzdGVkIGNvbW1lbnQ6IHRpbWVzdGFtcDoxNzAwMDAwMDAwCkhNUG5GSHNOeDFoSW8rZXV2YlFPUmdUb3VhOHpPOFhkak5uOEJpSk9LV0dVN21mOW1JN3JCU1lGQ1YrQngreGxpVDNBRkRpTHdYRWE3cnQ0a0N0NUF3PT0K';

const post = (url: string, payload: object, method: 'POST' | 'PUT' = 'POST') =>
  t.app.inject({ method, url, headers: bearer, payload });
const get = (url: string, app: App = t.app) => app.inject({ url });

const upload = (name: string, body: Buffer) => hostFile(t.app, name, body);

async function publish(body: object): Promise<void> {
  const res = await post('/v1/admin/releases', body);
  assert.equal(res.statusCode, 201, res.body);
}

/** Where /dl/{os} sends a client now. */
async function dl(os: string, app: App = t.app): Promise<string | undefined> {
  return (await app.inject({ url: `/dl/${os}` })).headers.location;
}

/** TangSengDaoDao's Android client (AppVersion): these fields, is_force an int. */
interface AppVersion {
  app_version: string;
  os: string;
  is_force: number;
  update_desc: string;
  download_url: string;
  created_at: string;
}

const appVersion = async (os: string, version: string, app: App = t.app) => {
  const res = await get(`/v1/common/appversion/${os}/${encodeURIComponent(version)}`, app);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<Partial<AppVersion>>();
};

describe('before anything is published', () => {
  test('every check says there is nothing to update to', async () => {
    assert.deepEqual(await appVersion('android', '1.0.0'), {});
    // HarmonyOS NEXT's app updates through AppGallery: its check is answered, with nothing.
    assert.deepEqual(await appVersion('harmonyos', '1.0.0'), {});
    assert.deepEqual(await appVersion('HarmonyOS', '5.0.0'), {});
    assert.equal((await get('/v1/common/updater/windows/1.0.0')).statusCode, 204);
    const yml = await get('/v1/common/pcupdater/latest.yml');
    assert.equal(yml.statusCode, 404);
    assert.match(yml.json<{ msg: string }>().msg, /no windows release/);
  });

  test('an unknown platform gets no update (update-edges.test.ts), and an unknown yml a 404', async () => {
    assert.deepEqual(await appVersion('symbian', '1.0'), {});
    assert.equal((await get('/v1/common/updater/linux/1.0')).statusCode, 204);
    assert.equal((await get('/v1/common/pcupdater/latest-linux.yml')).statusCode, 404);
  });
});

describe('a hosted Windows release', () => {
  const notes = '修复: "引号" 与换行\n- second line: yes # not a comment\u2028end';
  before(async () => {
    const key = await upload('xingliao-setup-5.10.0.exe', exe);
    await publish({ os: 'windows', file_key: key, version: '5.10.0', notes, signature });
  });

  test('the app check offers it to older clients, as TangSengDaoDao clients read it', async () => {
    const answer = (await appVersion('windows', '5.9.3')) as AppVersion;
    assert.deepEqual(Object.keys(answer).sort(), [
      'app_version',
      'created_at',
      'download_url',
      'is_force',
      'os',
      'update_desc',
    ]);
    assert.equal(answer.app_version, '5.10.0');
    assert.equal(answer.os, 'windows');
    assert.equal(answer.is_force, 0);
    assert.equal(answer.update_desc, notes);
    assert.equal(answer.download_url, await dl('windows'));
    assert.match(answer.created_at, wireTime);
  });

  test('the current version, a newer one, and a pre-release of it are current or not as numbers say', async () => {
    assert.deepEqual(await appVersion('windows', '5.10.0'), {});
    assert.deepEqual(await appVersion('windows', 'v5.10'), {});
    assert.deepEqual(await appVersion('windows', '5.11.0-beta'), {});
    assert.equal((await appVersion('windows', '5.10.0-rc.1')).app_version, '5.10.0');
  });

  test('a version that cannot be read is answered with the current release', async () => {
    for (const version of ['unknown', '5..1', '%E4%BA%94', '9'.repeat(150)]) {
      const res = await get(`/v1/common/appversion/windows/${version}`);
      assert.equal(res.statusCode, 200, version);
      assert.equal(res.json<AppVersion>().app_version, '5.10.0', version);
    }
    assert.equal((await get('/v1/common/updater/windows/nonsense')).statusCode, 200);
  });

  test('the Tauri check: 204 when current, else {url, version, notes, pub_date, signature}', async () => {
    assert.equal((await get('/v1/common/updater/windows/5.10.0')).statusCode, 204);
    const res = await get('/v1/common/updater/windows/5.9.3');
    assert.equal(res.statusCode, 200);
    const answer = res.json<Record<string, string>>();
    assert.deepEqual(Object.keys(answer).sort(), ['notes', 'pub_date', 'signature', 'url', 'version']);
    assert.equal(answer.url, await dl('windows'));
    assert.equal(answer.version, '5.10.0');
    assert.equal(answer.notes, notes);
    assert.equal(answer.signature, signature);
    assert.match(answer.pub_date ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.ok(!Number.isNaN(Date.parse(answer.pub_date ?? '')));
  });

  test("latest.yml reads back as electron-updater's UpdateInfo, its SHA-512 that of the file", async () => {
    const res = await get('/v1/common/pcupdater/latest.yml');
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^text\/yaml/);
    const info = parse(res.body) as Record<string, unknown>;
    const sha512 = createHash('sha512').update(exe).digest('base64');
    const url = await dl('windows');
    assert.deepEqual(info.files, [{ url, sha512, size: exe.length }]);
    assert.equal(info.version, '5.10.0');
    assert.equal(info.path, url);
    assert.equal(info.sha512, sha512);
    assert.equal(info.releaseNotes, notes);
    assert.ok(!Number.isNaN(Date.parse(String(info.releaseDate))));
  });

  test('the download address follows the CDN as /dl does', async () => {
    const cdn = await post(
      '/v1/admin/appconfig',
      { use_cdn: 1, common_cdn_bucket_url: 'https://cdn.example.com' },
      'PUT',
    );
    assert.equal(cdn.statusCode, 200, cdn.body);
    try {
      const url = await dl('windows');
      assert.match(url ?? '', /^https:\/\/cdn\.example\.com\//);
      assert.equal((await appVersion('windows', '1.0')).download_url, url);
      assert.equal((await get('/v1/common/updater/windows/1.0')).json<{ url: string }>().url, url);
      assert.equal((parse((await get('/v1/common/pcupdater/latest.yml')).body) as { path: string }).path, url);
    } finally {
      await post('/v1/admin/appconfig', { use_cdn: 0, common_cdn_bucket_url: '' }, 'PUT');
    }
  });
});

describe('forced updates', () => {
  test('a release published as forced is is_force 1', async () => {
    await publish({
      os: 'android',
      url: 'https://dl.example.com/xingliao-6.0.0.apk',
      version: '6.0.0',
      force_update: true,
    });
    const answer = await appVersion('android', '5.0.0');
    assert.equal(answer.is_force, 1);
    assert.equal(answer.download_url, 'https://dl.example.com/xingliao-6.0.0.apk');
    assert.equal(answer.update_desc, '');
  });

  test('clients below the lowest supported version must update; the change is audited', async () => {
    const set = await post('/v1/admin/min-versions/windows', { min_version: '5.2.0' }, 'PUT');
    assert.equal(set.statusCode, 200, set.body);
    assert.deepEqual(set.json(), { windows: '5.2.0' });
    assert.equal((await appVersion('windows', '5.1.9')).is_force, 1);
    assert.equal((await appVersion('windows', '5.2.0')).is_force, 0);
    const cards = (await t.app.inject({ url: '/v1/admin/releases', headers: bearer })).json<{
      platforms: { os: string; min_version: string | null }[];
    }>();
    assert.equal(cards.platforms.find((card) => card.os === 'windows')?.min_version, '5.2.0');
    const audit = await t.app.inject({ url: '/v1/admin/audit', headers: bearer });
    assert.match(audit.body, /release\.min_version/);
    const bad = await post('/v1/admin/min-versions/windows', { min_version: 'soon' }, 'PUT');
    assert.equal(bad.statusCode, 400);
    const cleared = await post('/v1/admin/min-versions/windows', { min_version: null }, 'PUT');
    assert.deepEqual(cleared.json(), {});
    assert.equal((await appVersion('windows', '5.1.9')).is_force, 0);
  });
});

test('a release from an outside URL has no latest-mac.yml: 404 saying why', async () => {
  await publish({ os: 'mac', url: 'https://dl.example.com/xingliao-5.3.0.dmg', version: '5.3.0' });
  const res = await get('/v1/common/pcupdater/latest-mac.yml');
  assert.equal(res.statusCode, 404);
  assert.match(res.json<{ msg: string }>().msg, /no SHA-512/);
  assert.equal((await get('/v1/common/updater/darwin/5.0.0')).json<{ url: string }>().url, await dl('mac'));
});

test('another server on the same database gives all three answers of a new release', async () => {
  const otherDb = connect(t.config.database);
  const other = await buildApp({ config: t.config, db: otherDb });
  try {
    assert.equal((await appVersion('windows', '1.0', other)).app_version, '5.10.0', 'the other server has it cached');
    const key = await upload('xingliao-setup-5.11.0.exe', Buffer.concat([exe, Buffer.from('5.11')]));
    await publish({ os: 'windows', file_key: key, version: '5.11.0' });
    const answer = await readUntil(
      other,
      () => appVersion('windows', '1.0', other),
      (seen) => seen.app_version === '5.11.0',
    );
    assert.equal(answer.app_version, '5.11.0');
    assert.equal((await get('/v1/common/updater/windows/5.10.0', other)).json<{ version: string }>().version, '5.11.0');
    const info = parse((await get('/v1/common/pcupdater/latest.yml', other)).body) as { version: string };
    assert.equal(info.version, '5.11.0');
    assert.equal((await get('/v1/common/updater/windows/5.11.0', other)).statusCode, 204);
  } finally {
    await other.close();
    await otherDb.close();
  }
});

test('checks and offers are counted per platform and client kind', async () => {
  const count = async (name: string, labels: string) => {
    const text = await processMetrics().registry.getSingleMetricAsString(name);
    return Number(new RegExp(`^${name}\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  };
  const labels = 'os="windows",client="app"';
  const [checks, offers] = [
    await count('chat_site_update_checks_total', labels),
    await count('chat_site_update_offers_total', labels),
  ];
  await appVersion('windows', '1.0.0');
  await appVersion('windows', '99.0.0');
  assert.equal(await count('chat_site_update_checks_total', labels), checks + 2);
  assert.equal(await count('chat_site_update_offers_total', labels), offers + 1);
});
