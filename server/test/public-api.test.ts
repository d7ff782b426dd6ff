import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BulletinDetail, BulletinPage, InstallPackageList, type RegionDocument } from '@chat-site/contract';
import { Value } from 'typebox/value';
import { startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
before(async () => {
  t = await startTestApp({ demo: true });
});
after(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('GET /v1/ping', () => {
  test('answers 200 {status:200}', async () => {
    const res = await get('/v1/ping');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 200 });
  });
});

describe('GET /v1/bulletin/page', () => {
  test('lists the demo announcements, pinned first then newest first, in the canonical shape', async () => {
    const res = await get('/v1/bulletin/page?page_size=100');
    assert.equal(res.statusCode, 200);
    const body = res.json<BulletinPage>();
    assert.ok(Value.Check(BulletinPage, body), JSON.stringify([...Value.Errors(BulletinPage, body)]));
    assert.equal(body.count, 12);
    assert.equal(body.list.length, 12);
    assert.deepEqual(
      body.list.map((item) => item.topup),
      [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    );
    for (const part of [body.list.slice(0, 2), body.list.slice(2)]) {
      const times = part.map((item) => item.created_at);
      assert.deepEqual(times, [...times].sort().reverse());
    }
  });

  test('pages with page_index and page_size, defaulting to 1 and 15', async () => {
    const all = (await get('/v1/bulletin/page?page_size=100')).json<BulletinPage>().list.map((item) => item.id);
    const first = (await get('/v1/bulletin/page')).json<BulletinPage>();
    assert.deepEqual(
      first.list.map((item) => item.id),
      all.slice(0, 15),
    );
    const second = (await get('/v1/bulletin/page?page_index=2&page_size=5')).json<BulletinPage>();
    assert.equal(second.count, 12);
    assert.deepEqual(
      second.list.map((item) => item.id),
      all.slice(5, 10),
    );
    const beyond = (await get('/v1/bulletin/page?page_index=9&page_size=5')).json<BulletinPage>();
    assert.deepEqual(beyond, { count: 12, list: [] });
  });

  test('keeps image paths in the HTML relative to {api}/v1/', async () => {
    const body = (await get('/v1/bulletin/page?page_size=100')).json<BulletinPage>();
    const images = body.list.flatMap((item) => [...item.content.matchAll(/src="([^"]+)"/g)].map((m) => m[1]));
    assert.ok(images.length >= 4);
    for (const src of images) assert.match(src ?? '', /^file\/preview\/[0-9a-f]{16}-[\w.-]+\.svg$/);
  });

  for (const query of [
    'page_index=0',
    'page_index=-1',
    'page_index=abc',
    'page_index=1.5',
    'page_size=0',
    'page_size=101',
    'page_size=1e9',
    'page_index=99999999999999999999',
  ]) {
    test(`rejects ${query} with a 400 {status, msg}`, async () => {
      const res = await get(`/v1/bulletin/page?${query}`);
      assert.equal(res.statusCode, 400);
      const body = res.json<{ status: number; msg: string }>();
      assert.equal(body.status, 400);
      assert.match(body.msg, /querystring\/page_(index|size)/);
    });
  }
});

describe('GET /v1/bulletin/detail', () => {
  test('answers the canonical detail of a known id', async () => {
    const [item] = (await get('/v1/bulletin/page?page_size=1')).json<BulletinPage>().list;
    assert.ok(item);
    const res = await get(`/v1/bulletin/detail?id=${item.id}`);
    assert.equal(res.statusCode, 200);
    const body = res.json<BulletinDetail>();
    assert.ok(Value.Check(BulletinDetail, body));
    assert.deepEqual(body, {
      Id: item.id,
      Title: item.title,
      Content: item.content,
      CreatedAt: item.created_at,
      Lang: 'zh-CN',
    });
  });

  test('answers 404 {status, msg} for an unknown id', async () => {
    const res = await get('/v1/bulletin/detail?id=999999');
    assert.equal(res.statusCode, 404);
    assert.deepEqual(res.json(), { status: 404, msg: 'announcement not found' });
  });

  for (const query of [
    '',
    'id=',
    'id=0',
    'id=-3',
    'id=abc',
    'id=1.5',
    'id=2147483648',
    "id=1'%20OR%201=1",
    'id=%E4%B8%80',
  ]) {
    test(`rejects "${query}" with a 400`, async () => {
      const res = await get(`/v1/bulletin/detail?${query}`);
      assert.equal(res.statusCode, 400);
      assert.equal(res.json<{ status: number }>().status, 400);
    });
  }
});

describe('GET /v1/common/getInstallPackageAddrs', () => {
  test('answers one entry per OS with absolute URLs to files this server hosts', async () => {
    const res = await get('/v1/common/getInstallPackageAddrs', { host: 'downloads.example.org' });
    assert.equal(res.statusCode, 200);
    const list = res.json<InstallPackageList>();
    assert.ok(Value.Check(InstallPackageList, list));
    assert.deepEqual(
      list.map((entry) => entry.OS),
      ['android', 'ios', 'windows', 'mac'],
    );
    for (const entry of list) {
      assert.match(entry.DownloadURL, /^http:\/\/downloads\.example\.org\/v1\/file\/preview\//);
      const file = await get(new URL(entry.DownloadURL).pathname);
      assert.equal(file.statusCode, 200);
      assert.equal(file.rawPayload.byteLength, entry.size);
      assert.match(file.headers['content-disposition'] as string, /^attachment; filename="xingliao-/);
    }
  });

  test('uses PUBLIC_URL for hosted files when it is set', async () => {
    const other = await startTestApp({ demo: true, env: { PUBLIC_URL: 'https://chat.example.net/' } });
    try {
      const list = (await other.app.inject('/v1/common/getInstallPackageAddrs')).json<InstallPackageList>();
      assert.ok(list.every((entry) => entry.DownloadURL.startsWith('https://chat.example.net/v1/file/preview/')));
    } finally {
      await other.close();
    }
  });
});

describe('GET /v1/common/appconfig and /v1/region', () => {
  test('app config defaults to the CDN off', async () => {
    const res = await get('/v1/common/appconfig');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { use_cdn: 0, common_cdn_bucket_url: '' });
  });

  test('region document names this server until the operator publishes one', async () => {
    const res = await get('/v1/region', { host: 'api.example.org' });
    const body = res.json<RegionDocument>();
    assert.deepEqual(body, {
      api_addrs: [{ addr: 'http://api.example.org' }],
      allocator_addrs: [{ addr: 'http://api.example.org/v1/region' }],
    });
  });
});

describe('GET /v1/file/preview/<key>', () => {
  test('serves a hosted image as an image, cacheable forever, never as a page', async () => {
    const body = (await get('/v1/bulletin/page?page_size=100')).json<BulletinPage>();
    const src = /src="(file\/preview\/[^"]+)"/.exec(body.list.map((item) => item.content).join(''))?.[1];
    assert.ok(src);
    const res = await get(`/v1/${src}`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'image/svg+xml');
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.match(res.headers['content-security-policy'] as string, /sandbox/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.match(res.body, /<svg/);
  });

  const badKeys: [string, number][] = [
    ['nope', 404],
    ['0123456789abcdef-missing.png', 404],
    ['..%2F..%2Fetc%2Fpasswd', 404],
    ['%00', 404],
    ['a'.repeat(300), 414],
  ];
  for (const [key, status] of badKeys) {
    test(`answers ${status} for the key ${key.slice(0, 40)}`, async () => {
      const res = await get(`/v1/file/preview/${key}`);
      assert.equal(res.statusCode, status);
      assert.equal(res.json<{ status: number }>().status, status);
    });
  }
});

describe('HTTP behaviour of API reads', () => {
  test('CORS allows any origin for public reads, including the os header', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/bulletin/page',
      headers: {
        origin: 'https://site.example.org',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'os',
      },
    });
    assert.equal(res.statusCode, 204);
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.match(String(res.headers['access-control-allow-headers']), /os/);
    const read = await get('/v1/ping', { origin: 'https://site.example.org', os: 'WEB' });
    assert.equal(read.headers['access-control-allow-origin'], '*');
  });

  test('ETag and 304 on reads, with no-cache so clients revalidate', async () => {
    const res = await get('/v1/bulletin/page');
    assert.equal(res.headers['cache-control'], 'no-cache');
    const etag = res.headers.etag as string;
    assert.ok(etag);
    const again = await get('/v1/bulletin/page', { 'if-none-match': etag });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
  });

  test('compresses JSON with brotli or gzip as the client asks', async () => {
    for (const encoding of ['br', 'gzip']) {
      const res = await get('/v1/bulletin/page?page_size=50', { 'accept-encoding': encoding });
      assert.equal(res.headers['content-encoding'], encoding);
    }
  });

  test('an unknown path under /v1/ is a JSON 404', async () => {
    for (const url of ['/v1/nope', '/v1/bulletin', '/v1/admin/nope']) {
      const res = await get(url);
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json<{ status: number }>().status, 404);
    }
  });

  test('methods other than GET on public reads are refused with JSON', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/bulletin/page', payload: {} });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json<{ status: number }>().status, 404);
  });

  test('GET /healthz answers ok while the database answers', async () => {
    const res = await get('/healthz');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok' });
  });
});

describe('security headers', () => {
  const documentOnly = [
    'cross-origin-opener-policy',
    'origin-agent-cluster',
    'referrer-policy',
    'x-dns-prefetch-control',
    'x-download-options',
    'x-permitted-cross-domain-policies',
    'x-xss-protection',
    'permissions-policy',
  ];

  test('a JSON answer carries those that act on it, without the document-only ones', async () => {
    for (const url of ['/v1/bulletin/page', '/v1/common/appconfig', '/v1/nope', '/v1/admin/bulletins']) {
      const res = await get(url);
      assert.equal(res.headers['content-security-policy'], "default-src 'none';frame-ancestors 'none'", url);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', url);
      assert.equal(res.headers['x-frame-options'], 'DENY', url);
      assert.equal(res.headers['cross-origin-resource-policy'], 'cross-origin', url);
      for (const name of documentOnly) assert.equal(res.headers[name], undefined, `${url}: ${name}`);
    }
  });

  test('a document (the page, a hosted file) carries them all', async () => {
    for (const url of ['/', '/v1/file/preview/nope.png']) {
      const res = await get(url);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', url);
      for (const name of documentOnly) assert.ok(res.headers[name] !== undefined, `${url}: ${name}`);
    }
  });
});
