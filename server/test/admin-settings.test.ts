/**
 * The console's settings and numbers through the admin API: the CDN check against local HTTP
 * servers standing in for a CDN, the region document's checks, the site config, the audit of
 * setting changes, and downloads per platform per day as JSON and CSV, bots left out. On
 * SQLite, and on PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CdnCheck, DownloadStats } from '@chat-site/contract/admin';
import { dayBefore } from '../src/downloads/repository.js';
import { toWireTime } from '../src/lib/time.js';
import { allowList, guardedLookup } from '../src/settings/cdn-address.js';
import { probeKey } from '../src/settings/cdn-check.js';
import { bearer, repoRoot, startTestApp, type TestApp } from './helpers.js';
import { checked } from './checked.js';

let t: TestApp;
before(async () => {
  // The stand-in CDNs listen on loopback, which the check refuses unless it is allowed.
  t = await startTestApp({ demo: true, env: { TIME_ZONE: 'Asia/Shanghai', CDN_CHECK_ALLOW_ADDRESSES: '127.0.0.1' } });
});
after(() => t.close());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer, ...(payload !== undefined && { payload }) });

/** A local HTTP server; answers with `handler`. */
async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const close = (server: Server) => new Promise((done) => server.close(done));

const check = async (payload: object) => {
  const res = await call('POST', '/v1/admin/settings/cdn-check', payload);
  assert.equal(res.statusCode, 200, res.body);
  return checked(CdnCheck, res);
};

describe('the CDN check', () => {
  let cdn: { url: string; server: Server };
  const seen: string[] = [];
  before(async () => {
    // A CDN that pulls /b/<key> from the site's file/preview/<key>, as a real one is set up to.
    cdn = await serve((req, res) => {
      seen.push(req.url ?? '');
      const key = /^\/b\/(.+)$/.exec(req.url ?? '')?.[1];
      if (key === undefined) return void res.writeHead(404).end('not here');
      void t.app.inject({ url: `/v1/file/preview/${key}` }).then((origin) => {
        res
          .writeHead(origin.statusCode, { 'content-type': String(origin.headers['content-type']) })
          .end(origin.rawPayload);
      });
    });
  });
  after(() => close(cdn.server));

  test("a CDN that serves the site's files answers the probe file", async () => {
    const result = await check({ url: `${cdn.url}/b/` });
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal(result.answered, true);
    assert.equal(result.status, 200);
    assert.equal(result.probe_url, `${cdn.url}/b/${probeKey}`);
    assert.equal(result.error, null);
    assert.ok(Number.isInteger(result.ms) && result.ms >= 0);
    assert.ok(seen.includes(`/b/${probeKey}`));
  });

  test('without a URL the saved bucket is checked; with none saved it is a 400', async () => {
    const none = await call('POST', '/v1/admin/settings/cdn-check', {});
    assert.equal(none.statusCode, 400);
    assert.match(none.json<{ msg: string }>().msg, /^body\/url: give a CDN bucket URL; none is saved/);
    const saved = await call('PUT', '/v1/admin/appconfig', { use_cdn: 0, common_cdn_bucket_url: `${cdn.url}/b` });
    assert.equal(saved.statusCode, 200);
    assert.equal((await check({})).ok, true);
    assert.equal((await call('PUT', '/v1/admin/appconfig', { use_cdn: 0, common_cdn_bucket_url: '' })).statusCode, 200);
  });

  test('only http(s) URLs', async () => {
    for (const url of ['ftp://127.0.0.1/b', 'file:///etc/passwd', 'not a url']) {
      const res = await call('POST', '/v1/admin/settings/cdn-check', { url });
      assert.equal(res.statusCode, 400, url);
      assert.match(res.json<{ msg: string }>().msg, /^body\/url: .* is not an http\(s\) URL$/);
    }
  });

  test('a CDN that answers something else: its status, not ok', async () => {
    const result = await check({ url: `${cdn.url}/elsewhere` });
    assert.equal(result.answered, true);
    assert.equal(result.status, 404);
    assert.equal(result.ok, false);
  });

  test('a CDN that does not answer: refused at once, or silent until the timeout', async () => {
    const gone = await serve(() => undefined);
    const port = new URL(gone.url).port;
    await close(gone.server);
    const refused = await check({ url: `http://127.0.0.1:${port}/b` });
    assert.equal(refused.answered, false);
    assert.equal(refused.status, null);
    assert.equal(refused.error, 'ECONNREFUSED');

    const silent = await serve(() => undefined);
    try {
      const result = await check({ url: `${silent.url}/b`, timeout_ms: 300 });
      assert.equal(result.answered, false);
      assert.equal(result.error, 'no answer within 300 ms');
    } finally {
      silent.server.closeAllConnections();
      await close(silent.server);
    }
  });

  test("a redirect within the bucket's origin is followed; one to another host is reported, not followed", async () => {
    const other: string[] = [];
    const elsewhere = await serve((req, res) => {
      other.push(req.url ?? '');
      res.end('x');
    });
    const redirecting = await serve((req, res) => {
      if (req.url?.startsWith('/moved/')) {
        return void res.writeHead(301, { location: `${cdn.url}/b/${probeKey}` }).end();
      }
      res.writeHead(302, { location: `/moved/${probeKey}` }).end();
    });
    try {
      const result = await check({ url: `${redirecting.url}/b` });
      assert.equal(result.ok, false);
      assert.equal(result.status, 301);
      assert.equal(result.redirected_to, cdn.url, 'its origin only');
      const away = await serve((_req, res) => res.writeHead(302, { location: `${elsewhere.url}/x?token=1` }).end());
      const moved = await check({ url: `${away.url}/b` });
      assert.equal(moved.redirected_to, elsewhere.url);
      assert.deepEqual(other, [], 'the other host was never asked');
      await close(away.server);
    } finally {
      await close(redirecting.server);
      await close(elsewhere.server);
    }
  });
});

describe('the addresses the CDN check may reach', () => {
  let bare: TestApp;
  let stub: { url: string; server: Server };
  const asked: string[] = [];
  before(async () => {
    bare = await startTestApp();
    stub = await serve((req, res) => {
      asked.push(req.url ?? '');
      res.end('x');
    });
  });
  after(async () => {
    await close(stub.server);
    await bare.close();
  });

  const checkOn = async (app: TestApp, url: string) => {
    const res = await app.app.inject({
      method: 'POST',
      url: '/v1/admin/settings/cdn-check',
      headers: bearer,
      payload: { url, timeout_ms: 2000 },
    });
    assert.equal(res.statusCode, 200, res.body);
    return checked(CdnCheck, res);
  };

  test('without CDN_CHECK_ALLOW_ADDRESSES, loopback, private, link-local and metadata addresses are never asked', async () => {
    const port = new URL(stub.url).port;
    for (const url of [
      `${stub.url}/b`,
      `http://localhost:${port}/b`,
      `http://2130706433:${port}/b`,
      `http://[::1]:${port}/b`,
      `http://[::ffff:127.0.0.1]:${port}/b`,
      `http://0.0.0.0:${port}/b`,
      'http://10.1.2.3/b',
      'http://172.16.0.1/b',
      'http://192.168.1.1/b',
      'http://100.64.0.1/b',
      'http://169.254.169.254/latest/meta-data',
      'http://[fe80::1]/b',
      'http://[fd00::1]/b',
      'http://[::ffff:169.254.169.254]/b',
    ]) {
      const result = await checkOn(bare, url);
      assert.equal(result.answered, false, url);
      assert.match(result.error ?? '', /is not a public address .*CDN_CHECK_ALLOW_ADDRESSES/, url);
    }
    assert.deepEqual(asked, [], 'no request reached the stand-in');
  });

  test('a redirect to a metadata address is not followed, and only its origin is reported', async () => {
    const redirecting = await serve((_req, res) =>
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/role' }).end(),
    );
    try {
      const result = await check({ url: `${redirecting.url}/b` });
      assert.equal(result.status, 302);
      assert.equal(result.redirected_to, 'http://169.254.169.254');
      assert.equal(result.ok, false);
    } finally {
      await close(redirecting.server);
    }
  });

  test('the allow list lets its addresses through and no others', async () => {
    assert.equal((await check({ url: `${stub.url}/b` })).status, 200, '127.0.0.1 is listed');
    const other = await check({ url: `http://127.0.0.2:${new URL(stub.url).port}/b` });
    assert.match(other.error ?? '', /^127\.0\.0\.2 is not a public address/);
    assert.equal(other.answered, false);
  });

  test('each connection resolves the name and gets only an address that was checked', async () => {
    const resolve = (allowed: string[]) =>
      new Promise<string>((done) =>
        guardedLookup(allowList(allowed))('localhost', { all: true }, (error) =>
          done(error === null ? 'connect' : error.message),
        ),
      );
    assert.match(await resolve([]), /^localhost is not a public address/);
    assert.match(await resolve(['10.0.0.0/8']), /^localhost is not a public address/);
    assert.equal(await resolve(['127.0.0.0/8', '::1']), 'connect');
  });

  test('a bucket URL with a query or fragment is refused, checked or saved', async () => {
    for (const url of [`${stub.url}/b?`, `${stub.url}/b?x=1`, `${stub.url}/b#`, `${stub.url}/b#x`]) {
      const checked = await call('POST', '/v1/admin/settings/cdn-check', { url });
      assert.equal(checked.statusCode, 400, url);
      assert.match(checked.json<{ msg: string }>().msg, /^body\/url: must not have a query or fragment/);
      const saved = await call('PUT', '/v1/admin/appconfig', { use_cdn: 0, common_cdn_bucket_url: url });
      assert.equal(saved.statusCode, 400, url);
      assert.match(
        saved.json<{ msg: string }>().msg,
        /^body\/common_cdn_bucket_url: must not have a query or fragment/,
      );
    }
  });
});

describe('the region document and the app config', () => {
  test('bad documents are 400s naming the field; nothing is saved', async () => {
    const good = {
      api_addrs: [{ addr: 'https://a.example.com' }],
      allocator_addrs: [{ addr: 'https://r.example.com/v1/region' }],
    };
    assert.equal((await call('PUT', '/v1/admin/region', good)).statusCode, 200);
    const cases: [object, string][] = [
      [{ api_addrs: [], allocator_addrs: [] }, 'body/api_addrs: at least one API address is needed'],
      [
        { api_addrs: [{ addr: 'https://a.example.com' }, { addr: 'https://a.example.com/' }], allocator_addrs: [] },
        'body/api_addrs/1/addr: https://a.example.com/ is the same address as api_addrs/0',
      ],
      [
        { api_addrs: [{ addr: 'https://a.example.com' }], allocator_addrs: [{ addr: 'ftp://r.example.com' }] },
        'body/allocator_addrs/0/addr: "ftp://r.example.com" is not an http(s) URL',
      ],
      [
        { api_addrs: [{ addr: 'https://a.example.com' }, { addr: 'https://b.example .com' }], allocator_addrs: [] },
        'body/api_addrs/1/addr: "https://b.example .com" is not an http(s) URL',
      ],
      [
        { api_addrs: [{ addr: 'https://user:pw@a.example.com' }], allocator_addrs: [] },
        'body/api_addrs/0/addr: an address must not carry a user name or password',
      ],
    ];
    for (const [payload, msg] of cases) {
      const res = await call('PUT', '/v1/admin/region', payload);
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      const { status, msg: said } = res.json<{ status: number; msg: string }>();
      assert.deepEqual({ status, msg: said }, { status: 400, msg });
    }
    assert.deepEqual((await t.app.inject({ url: '/v1/region' })).json(), good);
  });

  test('both changes are in the audit log with the state before and after', async () => {
    const region = { api_addrs: [{ addr: 'https://c.example.com' }], allocator_addrs: [] };
    assert.equal((await call('PUT', '/v1/admin/region', region)).statusCode, 200);
    const appconfig = { use_cdn: 1, common_cdn_bucket_url: 'https://cdn.example.com/b' };
    assert.equal((await call('PUT', '/v1/admin/appconfig', appconfig)).statusCode, 200);
    const rows = await t.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'actor', 'after'])
      .where('action', 'in', ['region.set', 'appconfig.set'])
      .orderBy('id', 'desc')
      .limit(2)
      .execute();
    assert.deepEqual(
      rows.map((row) => [row.action, row.actor, JSON.parse(row.after ?? 'null')]),
      [
        ['appconfig.set', 'admin-token', appconfig],
        ['region.set', 'admin-token', region],
      ],
    );
    await call('PUT', '/v1/admin/appconfig', { use_cdn: 0, common_cdn_bucket_url: '' });
  });

  test('the site config is shown as loaded, with the file it came from', async () => {
    const res = await call('GET', '/v1/admin/site-config');
    assert.equal(res.statusCode, 200);
    const path = join(repoRoot, 'site.config.json');
    assert.deepEqual(res.json(), { path, config: JSON.parse(readFileSync(path, 'utf8')) });
  });
});

describe('downloads per platform per day', () => {
  const zone = 'Asia/Shanghai';
  const today = () => toWireTime(new Date(), zone).slice(0, 10);
  const browser = {
    'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120 Safari/537.36',
  };

  before(async () => {
    // Earlier days, as the /dl counts would have left them.
    await t.db.kysely
      .insertInto('download_counts')
      .values([
        { day: dayBefore(today(), 1), os: 'android', downloads: 5 },
        { day: dayBefore(today(), 1), os: 'mac', downloads: 2 },
        { day: dayBefore(today(), 6), os: 'windows', downloads: 7 },
        { day: dayBefore(today(), 7), os: 'windows', downloads: 100 },
        { day: dayBefore(today(), 29), os: 'ios', downloads: 3 },
      ])
      .execute();
  });

  test("a known bot's download is not counted; a browser's is", async () => {
    const bots = [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)',
      'curl/8.5.0',
    ];
    for (const ua of bots) {
      assert.equal((await t.app.inject({ url: '/dl/android', headers: { 'user-agent': ua } })).statusCode, 302);
    }
    const counted = async () =>
      (
        await t.db.kysely
          .selectFrom('download_counts')
          .select('downloads')
          .where('day', '=', today())
          .where('os', '=', 'android')
          .executeTakeFirst()
      )?.downloads;
    assert.equal(await counted(), undefined);
    assert.equal((await t.app.inject({ url: '/dl/android', headers: browser })).statusCode, 302);
    assert.equal(Number(await counted()), 1);
  });

  test('7 days, oldest first, every day there with zeros where nothing was downloaded', async () => {
    const res = await call('GET', '/v1/admin/stats/downloads?days=7');
    assert.equal(res.statusCode, 200, res.body);
    const body = checked(DownloadStats, res);
    assert.equal(body.to, today());
    assert.equal(body.from, dayBefore(today(), 6));
    assert.equal(body.time_zone, zone);
    const zero = { android: 0, ios: 0, windows: 0, mac: 0, harmonyos: 0, total: 0 };
    assert.deepEqual(body.days, [
      { day: dayBefore(today(), 6), ...zero, windows: 7, total: 7 },
      ...[5, 4, 3, 2].map((n) => ({ day: dayBefore(today(), n), ...zero })),
      { day: dayBefore(today(), 1), ...zero, android: 5, mac: 2, total: 7 },
      { day: today(), ...zero, android: 1, total: 1 },
    ]);
    assert.deepEqual(body.total, { android: 6, ios: 0, windows: 7, mac: 2, harmonyos: 0, total: 15 });
  });

  test('30 and 90 days; any other span is a 400', async () => {
    const thirty = checked(DownloadStats, await call('GET', '/v1/admin/stats/downloads?days=30'));
    assert.equal(thirty.days.length, 30);
    assert.equal(thirty.total.total, 118);
    assert.equal(checked(DownloadStats, await call('GET', '/v1/admin/stats/downloads?days=90')).days.length, 90);
    for (const days of ['5', '0', '365', 'x']) {
      assert.equal((await call('GET', `/v1/admin/stats/downloads?days=${days}`)).statusCode, 400, days);
    }
  });

  test('the CSV export: a header row, one line per day, as a file to save', async () => {
    const res = await call('GET', '/v1/admin/stats/downloads?days=7&format=csv');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(
      res.headers['content-disposition'],
      `attachment; filename="downloads-${dayBefore(today(), 6)}-${today()}.csv"`,
    );
    const lines = [
      'day,android,ios,windows,mac,harmonyos,total,in_app_visits,in_app_guides',
      `${dayBefore(today(), 6)},0,0,7,0,0,7,0,0`,
    ];
    for (const n of [5, 4, 3, 2]) lines.push(`${dayBefore(today(), n)},0,0,0,0,0,0,0,0`);
    lines.push(`${dayBefore(today(), 1)},5,0,0,2,0,7,0,0`, `${today()},1,0,0,0,0,1,0,0`);
    assert.equal(res.body, `${lines.join('\r\n')}\r\n`);
  });

  test('an editor sees no numbers', async () => {
    const { addUser } = await import('../src/accounts/repository.js');
    const { hashPassword } = await import('../src/accounts/passwords.js');
    await addUser(t.db.kysely, { name: 'ed', role: 'editor', passwordHash: await hashPassword('ed-password-123') });
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/session',
      headers: { origin: 'http://localhost' },
      payload: { name: 'ed', password: 'ed-password-123' },
    });
    const cookie = signIn.cookies.find((c) => c.name === 'chat_site_session')?.value ?? '';
    for (const url of ['/v1/admin/stats/downloads?days=7', '/v1/admin/site-config']) {
      const res = await t.app.inject({ url, headers: { cookie: `chat_site_session=${cookie}` } });
      assert.equal(res.statusCode, 403, url);
    }
  });
});
