/**
 * The stable download links `GET /dl/{os}` and their counts, on a real database (SQLite, or
 * PostgreSQL with TEST_POSTGRES_URL), and `admin stats` run for real as a child process.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { connect, type Db } from '../src/db/connect.js';
import { migrate } from '../src/db/migrations.js';
import { loadDemoContent } from '../src/demo/load.js';
import { storageFor } from '../src/storage/index.js';
import { toWireTime } from '../src/lib/time.js';
import { replacePackages } from '../src/packages/repository.js';
import { emptySiteListing } from '@chat-site/contract/admin';
import { setAppConfig, setSiteListing } from '../src/settings/repository.js';
import { cliPath, createTestDatabase, repoRoot, testEnv, type TestDatabase } from './helpers.js';

const site = loadConfig(testEnv({ url: 'sqlite::memory:', drop: async () => undefined })).site;
const zone = 'Asia/Shanghai';

interface Setup {
  database: TestDatabase;
  db: Db;
  app: Awaited<ReturnType<typeof buildApp>>;
}

/** The app in-process on a fresh database with the demo packages. */
async function setUp(env: Record<string, string> = {}): Promise<Setup> {
  const database = await createTestDatabase();
  const config = loadConfig(testEnv(database, { TIME_ZONE: zone, ...env }));
  const db = connect(config.database);
  await migrate(db, storageFor(config.storage));
  await loadDemoContent(db.kysely, storageFor(config.storage));
  const app = await buildApp({ config, db });
  return { database, db, app };
}

async function tearDown({ database, db, app }: Setup): Promise<void> {
  await app.close();
  await db.close();
  await database.drop();
}

function stats(
  database: TestDatabase,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env, DATABASE_URL: database.url, TIME_ZONE: zone };
  return new Promise((done) =>
    execFile(process.execPath, [cliPath, 'stats', ...args], { env }, (error, stdout, stderr) =>
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr }),
    ),
  );
}

interface StatsJson {
  from: string;
  to: string;
  days: { day: string; android: number; ios: number; windows: number; mac: number; harmonyos: number; total: number }[];
  total: { android: number; ios: number; windows: number; mac: number; harmonyos: number; total: number };
}

async function statsJson(database: TestDatabase, days = '7'): Promise<StatsJson> {
  const result = await stats(database, ['--json', '--days', days]);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as StatsJson;
}

/** A phone's browser: isbot counts light-my-request's own user agent as a bot. */
const browser = {
  'user-agent':
    'Mozilla/5.0 (Linux; Android 13) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Mobile Safari/537.36',
};

const today = () => toWireTime(new Date(), zone).slice(0, 10);

let main: Setup;
let packages: { OS: string; DownloadURL: string }[];
before(async () => {
  assert.ok(existsSync(cliPath), `${cliPath} is missing: run npm run build first`);
  main = await setUp();
  packages = (await main.app.inject({ url: '/v1/common/getInstallPackageAddrs' })).json();
});
after(() => tearDown(main));

const packageUrl = (os: string) => packages.find((entry) => entry.OS === os)?.DownloadURL;

describe('GET /dl/{os}', () => {
  test('answers 302 to the package the download screen offers, never cached', async () => {
    for (const os of ['android', 'windows', 'mac']) {
      const response = await main.app.inject({ url: `/dl/${os}` });
      assert.equal(response.statusCode, 302, os);
      assert.ok(packageUrl(os)?.startsWith('http://localhost/v1/file/preview/'), String(packageUrl(os)));
      assert.equal(response.headers.location, packageUrl(os));
      assert.equal(response.headers['cache-control'], 'no-store');
    }
    const file = await main.app.inject({ url: new URL(packageUrl('windows') ?? '').pathname });
    assert.equal(file.statusCode, 200);
  });

  test('iOS goes to the App Store page of the configured app', async () => {
    const response = await main.app.inject({ url: '/dl/ios' });
    assert.equal(response.statusCode, 302);
    assert.equal(response.headers.location, `https://apps.apple.com/app/id${site.iosAppStoreId}`);
  });

  test('HarmonyOS NEXT goes to its AppGallery page on every host, once one is set', async () => {
    const none = await main.app.inject({ url: '/dl/harmonyos' });
    assert.equal(none.statusCode, 404);
    assert.deepEqual(none.json(), { status: 404, msg: 'no AppGallery page is set for HarmonyOS NEXT' });
    const appGallery = 'https://appgallery.huawei.com/app/C100000009';
    await setSiteListing(main.db.kysely, { ...emptySiteListing, harmonyos_url: appGallery });
    try {
      for (const host of ['localhost', site.primaryDomain]) {
        const response = await main.app.inject({ url: '/dl/HarmonyOS', headers: { host } });
        assert.equal(response.statusCode, 302, host);
        assert.equal(response.headers.location, appGallery);
      }
    } finally {
      await setSiteListing(main.db.kysely, emptySiteListing);
    }
  });

  test('the platform name is read in any case; an unknown one is a 404 that names the platforms', async () => {
    assert.equal((await main.app.inject({ url: '/dl/Windows' })).headers.location, packageUrl('windows'));
    const response = await main.app.inject({ url: '/dl/linux' });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), {
      status: 404,
      msg: 'no download for "linux"; the platforms are android, ios, windows, mac, harmonyos',
    });
  });

  test('on the primary domain (and www.) Android is the fixed APK and nothing else is offered', async () => {
    for (const host of [site.primaryDomain, `www.${site.primaryDomain}`, `WWW.${site.primaryDomain.toUpperCase()}`]) {
      const android = await main.app.inject({ url: '/dl/android', headers: { host } });
      assert.equal(android.statusCode, 302, host);
      assert.equal(android.headers.location, site.androidApkUrl);
      for (const os of ['ios', 'windows', 'mac']) {
        const other = await main.app.inject({ url: `/dl/${os}`, headers: { host } });
        assert.equal(other.statusCode, 404, `${host} ${os}`);
        assert.deepEqual(other.json(), {
          status: 404,
          msg: `only the Android app is offered on ${site.primaryDomain}`,
        });
      }
    }
  });
});

describe('CDN and missing packages', () => {
  let other: Setup;
  before(async () => {
    other = await setUp({ PUBLIC_URL: 'https://chat.example.net' });
  });
  after(() => tearDown(other));

  test('with the CDN on, hosted packages redirect into the bucket, as the site rewrites them', async () => {
    await setAppConfig(other.db.kysely, { use_cdn: 1, common_cdn_bucket_url: 'https://cdn.example.test/bucket/' });
    const response = await other.app.inject({ url: '/dl/mac' });
    assert.equal(response.statusCode, 302);
    assert.match(
      String(response.headers.location),
      /^https:\/\/cdn\.example\.test\/bucket\/[0-9a-f]{16}-xingliao-mac-demo\.dmg$/,
    );
  });

  test('an outside URL is passed through; a platform without a package is a 404 and is not counted', async () => {
    await replacePackages(other.db.kysely, [{ os: 'windows', downloadUrl: 'https://dl.example.com/setup.exe' }]);
    assert.equal((await other.app.inject({ url: '/dl/windows' })).headers.location, 'https://dl.example.com/setup.exe');
    const before = (await statsJson(other.database)).total;
    const missing = await other.app.inject({ url: '/dl/android' });
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(missing.json(), { status: 404, msg: 'no android package is published' });
    assert.deepEqual((await statsJson(other.database)).total, before);
  });
});

describe('addresses a Location header cannot carry as they are', () => {
  let named: Setup;
  before(async () => {
    named = await setUp();
  });
  after(() => tearDown(named));

  test('a package named in Chinese is sent percent-encoded; a relative one is resolved against appUrl', async () => {
    await replacePackages(named.db.kysely, [
      { os: 'windows', downloadUrl: 'https://dl.example.com/星聊-5.0.exe' },
      { os: 'mac', downloadUrl: 'mac/星聊 5.0.dmg'.replace(' ', '-') },
    ]);
    const windows = await named.app.inject({ url: '/dl/windows' });
    assert.equal(windows.statusCode, 302);
    assert.equal(windows.headers.location, 'https://dl.example.com/%E6%98%9F%E8%81%8A-5.0.exe');
    const mac = await named.app.inject({ url: '/dl/mac' });
    assert.equal(mac.statusCode, 302);
    const expected = new URL(`${site.appUrl.replace(/\/+$/, '')}/mac/星聊-5.0.dmg`).href;
    assert.equal(mac.headers.location, expected);
    assert.match(expected, /%E6%98%9F%E8%81%8A-5\.0\.dmg$/);
  });
});

describe('counting and admin stats', () => {
  let counted: Setup;
  before(async () => {
    counted = await setUp();
  });
  after(() => tearDown(counted));

  test("every client's GET is counted for today, concurrent ones included; HEAD is not", async () => {
    const hits = { android: 40, ios: 3, windows: 2, mac: 0, harmonyos: 0 };
    const requests = Object.entries(hits).flatMap(([os, n]) => Array.from({ length: n }, (_, i) => ({ os, i })));
    const answers = await Promise.all(
      requests.map(({ os, i }) =>
        counted.app.inject({ url: `/dl/${os}`, headers: browser, remoteAddress: `198.51.100.${i + 1}` }),
      ),
    );
    assert.ok(answers.every((answer) => answer.statusCode === 302));
    assert.equal((await counted.app.inject({ method: 'HEAD', url: '/dl/ios' })).statusCode, 302);
    const result = await statsJson(counted.database);
    assert.equal(result.to, today());
    assert.equal(result.days.length, 7);
    assert.deepEqual(result.days[0], { day: today(), ...hits, total: 45 });
    assert.ok(result.days.slice(1).every((day) => day.total === 0));
    assert.deepEqual(result.total, { ...hits, total: 45 });
  });

  test('the table shows each day newest first, a total row and a summary line', async () => {
    await counted.app.inject({ url: '/dl/mac', headers: browser });
    const result = await stats(counted.database, ['--days', '3']);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^day\s+android\s+ios\s+windows\s+mac\s+harmonyos\s+total$/);
    assert.match(lines[1] ?? '', new RegExp(`^${today()}\\s+40\\s+3\\s+2\\s+1\\s+0\\s+46$`));
    assert.match(lines[2] ?? '', /^\d{4}-\d{2}-\d{2}\s+0\s+0\s+0\s+0\s+0\s+0$/);
    assert.ok((lines[2] ?? '') < (lines[1] ?? ''));
    assert.match(lines[4] ?? '', /^total\s+40\s+3\s+2\s+1\s+0\s+46$/);
    assert.equal(
      lines[6],
      `46 downloads from ${(await statsJson(counted.database, '3')).from} to ${today()} (${zone})`,
    );
  });

  test('--days must be a whole number from 1 to 3660', async () => {
    for (const days of ['0', '-1', '2.5', 'x', '3661']) {
      const result = await stats(counted.database, ['--days', days]);
      assert.equal(result.code, 2, days);
      assert.match(result.stderr, /^error: .*--days.*whole number from 1 to 3660\n$/);
      assert.equal(result.stdout, '');
    }
  });
});

describe('one download per client, platform and day', () => {
  let visited: Setup;
  before(async () => {
    visited = await setUp();
  });
  after(() => tearDown(visited));

  test('a client is counted once per platform and day, whatever the number of its requests', async () => {
    const ask = (os: string, remoteAddress: string, headers = browser) =>
      visited.app.inject({ url: `/dl/${os}`, headers, remoteAddress });
    const before = (await statsJson(visited.database)).total;
    const answers = await Promise.all(Array.from({ length: 100 }, () => ask('android', '192.0.2.50')));
    assert.ok(answers.every((answer) => answer.statusCode === 302));
    await ask('ios', '192.0.2.50');
    await ask('android', '2001:db8:1:2::7');
    await ask('android', '2001:db8:1:2::8');
    await ask('android', '192.0.2.50', { 'user-agent': `${browser['user-agent']} Edg/120` });
    const after = (await statsJson(visited.database)).total;
    assert.deepEqual(
      { android: after.android - before.android, ios: after.ios - before.ios },
      { android: 3, ios: 1 },
      'one address; one IPv6 /64; another browser on the first address',
    );
    const stored = await visited.db.kysely.selectFrom('download_visitors').selectAll().execute();
    assert.ok(
      stored.every((row) => !row.visitor.includes('192.0.2.50') && !row.visitor.includes('2001:db8')),
      'no address is stored',
    );
  });

  test("a new day forgets the earlier days' clients and salts", async () => {
    const { db } = visited;
    const { firstDownloadToday } = await import('../src/downloads/visitors.js');
    const client = { address: '192.0.2.60', userAgent: browser['user-agent'] };
    assert.equal(await firstDownloadToday(db.kysely, 'mac', '2999-01-01', client), true);
    assert.equal(await firstDownloadToday(db.kysely, 'mac', '2999-01-01', client), false);
    assert.equal(await firstDownloadToday(db.kysely, 'mac', '2999-01-02', client), true, 'counted again the next day');
    const days = async (table: 'download_visitors' | 'download_salts') =>
      (await db.kysely.selectFrom(table).select('day').distinct().execute()).map((row) => row.day);
    assert.deepEqual(await days('download_salts'), ['2999-01-02']);
    assert.deepEqual(await days('download_visitors'), ['2999-01-02']);
  });
});

describe('iOS Smart App Banner', () => {
  const banner = `<meta name="apple-itunes-app" content="app-id=${site.iosAppStoreId}">`;
  const dir = mkdtempSync(join(tmpdir(), 'chat-site-banner-'));
  const configWith = (overrides: Record<string, unknown>) => {
    const path = join(dir, `${readdirSync(dir).length}.json`);
    const committed = JSON.parse(readFileSync(join(repoRoot, 'site.config.json'), 'utf8')) as Record<string, unknown>;
    delete committed.iosSmartAppBanner;
    writeFileSync(path, JSON.stringify({ ...committed, ...overrides }));
    return path;
  };
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [name, overrides, expected] of [
    ['on: in the page head', { iosSmartAppBanner: true }, true],
    ['off: not in the page', { iosSmartAppBanner: false }, false],
    ['unset: not in the page', {}, false],
  ] as const) {
    test(name, async () => {
      const setup = await setUp({ SITE_CONFIG: configWith(overrides) });
      try {
        const page = (await setup.app.inject({ url: '/' })).body;
        assert.equal(page.includes(banner), expected, page);
        if (expected) assert.ok(page.indexOf(banner) < page.indexOf('</head>'));
        const primary = await setup.app.inject({ url: '/', headers: { host: `www.${site.primaryDomain}` } });
        assert.equal(primary.body.includes('apple-itunes-app'), false, 'never on the primary domain');
      } finally {
        await tearDown(setup);
      }
    });
  }
});
