import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { BulletinDetail, BulletinPage, InstallPackageList } from '@chat-site/contract';
import { HostedFile } from '@chat-site/contract/admin';
import { bearer, startTestApp, type TestApp } from './helpers.js';
import { checked } from './checked.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, payload?: unknown, headers: Record<string, string> = bearer) =>
  t.app.inject({ method, url, headers, ...(payload !== undefined && { payload: payload as object }) });

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('admin authentication', () => {
  const attempts: [Method, string, unknown][] = [
    ['POST', '/v1/admin/bulletins', { title: 'x', content: '' }],
    ['PUT', '/v1/admin/bulletins/1', { title: 'x' }],
    ['DELETE', '/v1/admin/bulletins/1', undefined],
    ['PUT', '/v1/admin/packages', []],
    ['PUT', '/v1/admin/appconfig', { use_cdn: 0, common_cdn_bucket_url: '' }],
    ['PUT', '/v1/admin/region', { api_addrs: [], allocator_addrs: [] }],
    ['POST', '/v1/admin/files?name=a.png', undefined],
  ];
  const wrongHeaders: Record<string, Record<string, string>> = {
    'no token': {},
    'a wrong token': { authorization: 'Bearer wrong-token-wrong-token' },
    'the token without Bearer': { authorization: bearer.authorization.slice(7) },
    'basic auth': { authorization: 'Basic dGVzdDp0ZXN0' },
  };
  for (const [label, headers] of Object.entries(wrongHeaders)) {
    test(`every admin action with ${label} is a 401 that reveals nothing and changes nothing`, async () => {
      for (const [method, url, payload] of attempts) {
        const res = await call(method, url, payload, headers);
        assert.equal(res.statusCode, 401, `${method} ${url}`);
        assert.deepEqual(res.json(), { status: 401, msg: 'unauthorized', code: 'signed_out' });
      }
      assert.equal((await call('GET', '/v1/bulletin/page')).json<BulletinPage>().count, 0);
      assert.deepEqual((await call('GET', '/v1/common/getInstallPackageAddrs')).json(), []);
    });
  }

  test('without ADMIN_TOKEN no bearer token opens the admin API; only a console session could', async () => {
    const other = await startTestApp({ env: { ADMIN_TOKEN: '' } });
    try {
      const res = await other.app.inject({ method: 'POST', url: '/v1/admin/bulletins', headers: bearer, payload: {} });
      assert.equal(res.statusCode, 401);
      const anonymous = await other.app.inject({ method: 'POST', url: '/v1/admin/bulletins', payload: {} });
      assert.deepEqual(anonymous.json(), { status: 401, msg: 'unauthorized', code: 'signed_out' });
    } finally {
      await other.close();
    }
  });

  test('admin answers carry no CORS grant', async () => {
    const res = await call(
      'PUT',
      '/v1/admin/appconfig',
      { use_cdn: 0, common_cdn_bucket_url: '' },
      {
        ...bearer,
        origin: 'https://evil.example.com',
      },
    );
    assert.equal(res.headers['access-control-allow-origin'], undefined);
  });
});

describe('admin bulletins', () => {
  test('publish, edit, pin, unpin and remove an announcement', async () => {
    const created = await call('POST', '/v1/admin/bulletins', {
      title: '  新版本发布  ',
      content: '<p>你好</p>',
      topup: 1,
    });
    assert.equal(created.statusCode, 201);
    const { id } = created.json<{ id: number }>();
    assert.ok(Number.isInteger(id) && id > 0);

    let detail = (await call('GET', `/v1/bulletin/detail?id=${id}`)).json<BulletinDetail>();
    assert.equal(detail.Title, '新版本发布');
    assert.equal(detail.Content, '<p>你好</p>');
    let page = (await call('GET', '/v1/bulletin/page')).json<BulletinPage>();
    assert.equal(page.list.find((item) => item.id === id)?.topup, 1);

    assert.equal(
      (await call('PUT', `/v1/admin/bulletins/${id}`, { content: '<p>更新</p>', topup: 0 })).statusCode,
      200,
    );
    detail = (await call('GET', `/v1/bulletin/detail?id=${id}`)).json<BulletinDetail>();
    assert.equal(detail.Title, '新版本发布');
    assert.equal(detail.Content, '<p>更新</p>');
    page = (await call('GET', '/v1/bulletin/page')).json<BulletinPage>();
    assert.equal(page.list.find((item) => item.id === id)?.topup, 0);

    const removed = await call('DELETE', `/v1/admin/bulletins/${id}`);
    assert.equal(removed.statusCode, 204);
    assert.equal((await call('GET', `/v1/bulletin/detail?id=${id}`)).statusCode, 404);
    assert.equal((await call('DELETE', `/v1/admin/bulletins/${id}`)).statusCode, 404);
    assert.equal((await call('PUT', `/v1/admin/bulletins/${id}`, { title: 'x' })).statusCode, 404);
  });

  const badBodies: [string, unknown][] = [
    ['no title', { content: '' }],
    ['a blank title', { title: '   ', content: '' }],
    ['a title over 200 characters', { title: 'x'.repeat(201), content: '' }],
    ['no content', { title: 'x' }],
    ['topup 2', { title: 'x', content: '', topup: 2 }],
    ['topup "1"', { title: 'x', content: '', topup: '1' }],
    ['an unknown field', { title: 'x', content: '', extra: 1 }],
    ['an array', [{ title: 'x', content: '' }]],
  ];
  for (const [label, body] of badBodies) {
    test(`POST with ${label} is a 400 and stores nothing`, async () => {
      const res = await call('POST', '/v1/admin/bulletins', body);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json<{ status: number }>().status, 400);
      assert.equal((await call('GET', '/v1/bulletin/page')).json<BulletinPage>().count, 0);
    });
  }

  test('a body that is not JSON is refused: plain text by the schema, other types as unsupported', async () => {
    for (const [type, status] of [
      ['text/plain', 400],
      ['application/xml', 415],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/admin/bulletins',
        headers: { ...bearer, 'content-type': type },
        payload: '<title>x</title>',
      });
      assert.equal(res.statusCode, status);
      assert.equal(res.json<{ status: number }>().status, status);
    }
  });

  test('malformed JSON is a 400, and an empty PUT is a 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/bulletins',
      headers: { ...bearer, 'content-type': 'application/json' },
      payload: '{"title": ',
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json<{ status: number }>().status, 400);
    assert.equal((await call('PUT', '/v1/admin/bulletins/1', {})).statusCode, 400);
    assert.equal((await call('PUT', '/v1/admin/bulletins/abc', { title: 'x' })).statusCode, 400);
  });

  test('a body over 1 MiB is a 413', async () => {
    const res = await call('POST', '/v1/admin/bulletins', { title: 'x', content: 'a'.repeat(1_100_000) });
    assert.equal(res.statusCode, 413);
    assert.equal(res.json<{ status: number }>().status, 413);
  });
});

describe('admin files and packages', () => {
  test('uploads an image and answers the file/preview path to use', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/files?name=banner.png',
      headers: { ...bearer, 'content-type': 'image/png' },
      payload: png,
    });
    assert.equal(res.statusCode, 201, res.body);
    const body = checked(HostedFile, res);
    assert.equal(body.path, `file/preview/${body.key}`);
    assert.equal(body.size, png.byteLength);
    assert.equal(body.sha256, createHash('sha256').update(png).digest('hex'));
    const served = await call('GET', `/v1/${body.path}`, undefined, {});
    assert.equal(served.headers['content-type'], 'image/png');
    assert.deepEqual(served.rawPayload, png);
  });

  const badUploads: [string, string, string, Buffer][] = [
    ['HTML as text/html', 'a.html', 'text/html', Buffer.from('<script>alert(1)</script>')],
    ['HTML claiming to be a PNG', 'a.png', 'image/png', Buffer.from('<html><script>alert(1)</script>')],
    ['a PNG named .svg', 'a.svg', 'image/png', png],
    ['an empty body', 'a.png', 'image/png', Buffer.alloc(0)],
  ];
  for (const [label, name, type, payload] of badUploads) {
    test(`refuses ${label}`, async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/v1/admin/files?name=${name}`,
        headers: { ...bearer, 'content-type': type },
        payload,
      });
      assert.ok([400, 415].includes(res.statusCode), `${res.statusCode} ${res.body}`);
      assert.equal(res.json<{ status: number }>().status, res.statusCode);
    });
  }

  test('PUT /v1/admin/packages replaces the list, filling size and SHA-256 of hosted files', async () => {
    const upload = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/files?name=icon.png',
      headers: { ...bearer, 'content-type': 'image/png' },
      payload: png,
    });
    const { path } = upload.json<{ path: string }>();
    const res = await call('PUT', '/v1/admin/packages', [
      {
        OS: 'windows',
        DownloadURL: 'https://dl.example.com/setup.exe',
        version: '5.0.1',
        released_at: '2026-11-01 10:00:00',
      },
      { OS: 'android', DownloadURL: path, size: 1, sha256: 'f'.repeat(64) },
    ]);
    assert.equal(res.statusCode, 200, res.body);
    const list = (
      await call('GET', '/v1/common/getInstallPackageAddrs', undefined, { host: 'h.example' })
    ).json<InstallPackageList>();
    assert.deepEqual(list, [
      {
        OS: 'android',
        DownloadURL: `http://h.example/v1/${path}`,
        size: png.byteLength,
        sha256: createHash('sha256').update(png).digest('hex'),
      },
      {
        OS: 'windows',
        DownloadURL: 'https://dl.example.com/setup.exe',
        version: '5.0.1',
        released_at: '2026-11-01 10:00:00',
      },
    ]);
  });

  const badLists: [string, unknown][] = [
    ['an unknown OS', [{ OS: 'linux', DownloadURL: 'https://x.example/a' }]],
    [
      'a duplicate OS',
      [
        { OS: 'ios', DownloadURL: 'https://x.example/a' },
        { OS: 'ios', DownloadURL: 'https://x.example/b' },
      ],
    ],
    ['a javascript: URL', [{ OS: 'ios', DownloadURL: 'javascript:alert(1)' }]],
    ['an ftp: URL', [{ OS: 'ios', DownloadURL: 'ftp://x.example/a.ipa' }]],
    ['a path that climbs out', [{ OS: 'ios', DownloadURL: 'apk/../../etc/passwd' }]],
    ['an encoded climb', [{ OS: 'ios', DownloadURL: 'apk/%2e%2e/secret.apk' }]],
    ['another host through //', [{ OS: 'ios', DownloadURL: '//evil.example/a.ipa' }]],
    ['a path with a space', [{ OS: 'ios', DownloadURL: 'apk/app 5.0.apk' }]],
    ['a missing hosted file', [{ OS: 'ios', DownloadURL: 'file/preview/0123456789abcdef-none.ipa' }]],
    ['an impossible date', [{ OS: 'ios', DownloadURL: 'https://x.example/a', released_at: '2026-02-30 10:00:00' }]],
    ['a bad sha256', [{ OS: 'ios', DownloadURL: 'https://x.example/a', sha256: 'xyz' }]],
    ['an object instead of a list', { OS: 'ios', DownloadURL: 'https://x.example/a' }],
  ];
  for (const [label, body] of badLists) {
    test(`PUT /v1/admin/packages with ${label} is a 400 and keeps the old list`, async () => {
      const before = (await call('GET', '/v1/common/getInstallPackageAddrs')).body;
      const res = await call('PUT', '/v1/admin/packages', body);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json<{ status: number }>().status, 400);
      assert.equal((await call('GET', '/v1/common/getInstallPackageAddrs')).body, before);
    });
  }
});

describe('relative package addresses and empty bodies', () => {
  test('a relative DownloadURL is stored and served as sent', async () => {
    const list = [
      { OS: 'android', DownloadURL: 'apk/app-5.0.apk' },
      { OS: 'windows', DownloadURL: '/downloads/星聊-setup.exe' },
    ];
    const res = await call('PUT', '/v1/admin/packages', list);
    assert.equal(res.statusCode, 200, res.body);
    const served = (await call('GET', '/v1/common/getInstallPackageAddrs')).json<InstallPackageList>();
    assert.deepEqual(
      served.map(({ OS, DownloadURL }) => ({ OS, DownloadURL })),
      list,
    );
  });

  test('an empty body sent as application/json is no body: a DELETE goes through', async () => {
    const created = await call('POST', '/v1/admin/bulletins', { title: '要删的', content: '<p>x</p>' });
    const { id } = created.json<{ id: number }>();
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/bulletins/${id}`,
      headers: { ...bearer, 'content-type': 'application/json' },
      payload: '',
    });
    assert.ok(res.statusCode < 300, `${res.statusCode} ${res.body}`);
    assert.equal((await call('GET', `/v1/bulletin/detail?id=${id}`)).statusCode, 404);
    // A route that needs a body still says so.
    const empty = await t.app.inject({
      method: 'PUT',
      url: '/v1/admin/packages',
      headers: { ...bearer, 'content-type': 'application/json' },
      payload: '',
    });
    assert.equal(empty.statusCode, 400);
  });

  test('an encoded admin path gets no CORS grant either, nor does its preflight', async () => {
    const origin = 'https://evil.example.com';
    const write = await t.app.inject({
      method: 'PUT',
      url: '/v1/%61dmin/appconfig',
      headers: { ...bearer, origin },
      payload: { use_cdn: 0, common_cdn_bucket_url: '' },
    });
    assert.equal(write.statusCode, 200, 'the encoded path reaches the admin routes');
    assert.equal(write.headers['access-control-allow-origin'], undefined);
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/%61dmin/bulletins',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
    // The public API keeps its grant.
    const pub = await t.app.inject({ url: '/v1/ping', headers: { origin } });
    assert.equal(pub.headers['access-control-allow-origin'], '*');
  });
});

describe('admin app config and region document', () => {
  test('sets the CDN, and refuses use_cdn 1 without a bucket', async () => {
    const res = await call('PUT', '/v1/admin/appconfig', {
      use_cdn: 1,
      common_cdn_bucket_url: 'https://cdn.example.com/b/',
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual((await call('GET', '/v1/common/appconfig')).json(), {
      use_cdn: 1,
      common_cdn_bucket_url: 'https://cdn.example.com/b',
    });
    for (const body of [
      { use_cdn: 1, common_cdn_bucket_url: '' },
      { use_cdn: true, common_cdn_bucket_url: '' },
      { use_cdn: 0, common_cdn_bucket_url: 'ftp://x' },
      { use_cdn: 0 },
    ]) {
      assert.equal((await call('PUT', '/v1/admin/appconfig', body)).statusCode, 400, JSON.stringify(body));
    }
    assert.equal((await call('GET', '/v1/common/appconfig')).json<{ use_cdn: number }>().use_cdn, 1);
  });

  test('publishes a region document', async () => {
    const document = {
      api_addrs: [{ addr: 'https://a.example.com' }, { addr: 'https://b.example.com' }],
      allocator_addrs: [{ addr: 'https://r.example.com/v1/region' }],
    };
    assert.equal((await call('PUT', '/v1/admin/region', document)).statusCode, 200);
    assert.deepEqual((await call('GET', '/v1/region')).json(), document);
    const bad = await call('PUT', '/v1/admin/region', { api_addrs: [{ addr: 'not a url' }], allocator_addrs: [] });
    assert.equal(bad.statusCode, 400);
    assert.deepEqual((await call('GET', '/v1/region')).json(), document);
  });
});
