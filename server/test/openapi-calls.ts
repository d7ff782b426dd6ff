/**
 * For openapi-statuses.test.ts: an app with content to call (announcements, hosted files,
 * releases, operators), and for each documented operation the calls that produce the statuses
 * only it gives.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import { emptySiteListing } from '@chat-site/contract/admin';
import { hashPassword } from '../src/accounts/passwords.js';
import { addUser } from '../src/accounts/repository.js';
import { bearer, repoRoot, startTestApp, type TestApp } from './helpers.js';
import { dmg, uploadCalls } from './openapi-upload-calls.js';

export interface Call {
  status: number;
  request: InjectOptions;
  /** Another app than the fixture's, in a state of its own. */
  via?: TestApp['app'];
}

/** Statuses documented but not produced here, each with why. */
export const exempt: Record<string, string> = {
  'POST /v1/admin/files 507': 'needs a full disk or bucket',
  'PATCH /v1/admin/uploads/{id} 507': 'needs a full disk or bucket',
  'POST /v1/admin/session 503': 'needs every password check slot taken at once: sign-in-limits.test.ts does it',
  'PUT /v1/admin/session/password 503': 'needs every password check slot taken at once: sign-in-limits.test.ts does it',
  'GET /a/{id}/picture.png 503':
    'needs more pictures waiting to be drawn than the queue holds: picture-store.test.ts fills the queue of the store',
  'GET /site-picture.png 503': 'one picture, never more than one drawing: it cannot fill the queue',
  'GET /a/{id}/picture.png 429':
    "needs a client with two pictures being drawn: share-pictures.test.ts spends a client's budget",
  'GET /site-picture.png 429': 'needs a client that has spent its budget of draws on announcements first',
};

/** The client address that sent a wrong bearer token too often. */
export const blockedAddress = '192.0.2.99';
const origin = 'http://localhost';
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const apk = readFileSync(join(repoRoot, 'server/test/fixtures/reference-version.apk'));
const json = (
  method: InjectOptions['method'],
  url: string,
  payload: unknown,
  headers: Record<string, string> = bearer,
): InjectOptions => ({
  method,
  url,
  headers,
  payload: payload as InjectOptions['payload'],
});

export interface Fixture {
  t: TestApp;
  adminCookie: string;
  editorCookie: string;
  /** A URL of `path` whose parameters name things that exist. */
  sample(path: string): string;
  calls: Record<string, () => Promise<Call[]>>;
  close(): Promise<void>;
}

export async function prepare(): Promise<Fixture> {
  const uploadDir = mkdtempSync(join(tmpdir(), 'chat-site-openapi-uploads-'));
  const t = await startTestApp({ env: { ADMIN_MAX_FAILURES: '3', UPLOAD_DIR: uploadDir } });
  const inject = async (request: InjectOptions, status: number) => {
    const res = await t.app.inject(request);
    assert.equal(res.statusCode, status, `${request.method} ${request.url}: ${res.body}`);
    return res;
  };
  const cookieOf = async (name: string, role: 'admin' | 'editor') => {
    await addUser(t.db.kysely, { name, role, passwordHash: await hashPassword(`${name}-password-1`) });
    const payload = { name, password: `${name}-password-1` };
    const res = await inject({ ...json('POST', '/v1/admin/session', payload, { origin }) }, 200);
    return `chat_site_session=${res.cookies.find((c) => c.name === 'chat_site_session')?.value}`;
  };
  const adminCookie = await cookieOf('alice', 'admin');
  const editorCookie = await cookieOf('bob', 'editor');
  for (let i = 0; i < 3; i++) {
    await t.app.inject({
      url: '/v1/admin/session',
      remoteAddress: blockedAddress,
      headers: { authorization: 'Bearer wrong' },
    });
  }
  const upload = async (name: string, body: Buffer, type = 'application/octet-stream') =>
    (
      await inject(
        {
          method: 'POST',
          url: `/v1/admin/files?name=${name}`,
          headers: { ...bearer, 'content-type': type },
          payload: body,
        },
        201,
      )
    ).json<{ key: string }>().key;
  const pngKey = await upload('dot.png', png, 'image/png');
  const bulletin = { title: 'Hello', content: '<p>Hello</p>' };
  const bulletinId = (await inject(json('POST', '/v1/admin/bulletins', bulletin), 201)).json<{ id: number }>().id;
  await inject(json('PUT', `/v1/admin/bulletins/${bulletinId}`, { title: 'Hello, revised', version: 1 }), 200);
  const revisionId = (await inject({ url: `/v1/admin/bulletins/${bulletinId}/revisions`, headers: bearer }, 200))
    .json<{ list: { id: number }[] }>()
    .list.at(-1)?.id;
  const release = (os: string, body: object) =>
    inject(json('POST', '/v1/admin/releases', { os, ...body }), 201).then((res) => res.json<{ id: number }>().id);
  // A release whose file was deleted since: rolling back to it is a 409.
  const goneKey = await upload('old.dmg', dmg());
  const goneRelease = await release('mac', { file_key: goneKey, version: '4.0.0' });
  await release('mac', { url: 'https://dl.example.com/xingliao-5.3.0.dmg', version: '5.3.0' });
  // A hosted Mac release, current: its latest-mac.yml is answered (docs/releases.md#update-checks).
  // Its electron payload's blockmap is asked next to the payload: a 302 (docs/releases.md#update-payloads).
  const electronKey = await upload('xingliao-5.4.0-mac.zip', Buffer.from('PK\x03\x04 zip', 'latin1'));
  const blockmapKey = await upload('xingliao-5.4.0-mac.zip.blockmap', Buffer.from([0x1f, 0x8b, 8, 0]));
  await release('mac', {
    file_key: await upload('xingliao-5.4.0.dmg', dmg()),
    version: '5.4.0',
    payloads: [
      { role: 'electron', file_key: electronKey },
      { role: 'electron_blockmap', file_key: blockmapKey },
    ],
  });
  await inject({ method: 'DELETE', url: `/v1/admin/files/${goneKey}`, headers: bearer }, 204);
  const iosRelease = await release('ios', { url: 'https://dl.example.com/a.ipa', version: '1.0.0' });
  await release('ios', { url: 'https://dl.example.com/b.ipa', version: '1.1.0' });
  // An install package in use: deleting it is a 409.
  const usedKey = await upload('app.apk', apk);
  await release('android', { file_key: usedKey, version: '5.0.0' });

  const samples: Record<string, string> = {
    '/v1/admin/bulletins/{id}': `/v1/admin/bulletins/${bulletinId}`,
    '/v1/admin/bulletins/{id}/restore': `/v1/admin/bulletins/${bulletinId}/restore`,
    '/v1/admin/bulletins/{id}/revisions': `/v1/admin/bulletins/${bulletinId}/revisions`,
    '/v1/admin/bulletins/{id}/revisions/{revision}': `/v1/admin/bulletins/${bulletinId}/revisions/${revisionId}`,
    '/v1/admin/bulletins/{id}/revisions/{revision}/restore': `/v1/admin/bulletins/${bulletinId}/revisions/${revisionId}/restore`,
    '/v1/admin/bulletins/trash/{id}': '/v1/admin/bulletins/trash/999999',
    '/v1/admin/bulletins/{id}/duplicate': `/v1/admin/bulletins/${bulletinId}/duplicate`,
    '/v1/admin/releases/{id}/rollback': `/v1/admin/releases/${iosRelease}/rollback`,
    '/v1/admin/files/{key}': `/v1/admin/files/${pngKey}`,
    '/v1/admin/uploads/{id}': '/v1/admin/uploads/0123456789abcdef0123456789abcdef',
    '/v1/file/preview/{key}': `/v1/file/preview/${pngKey}`,
    '/v1/common/appversion/{os}/{version}': '/v1/common/appversion/mac/1.0.0',
    '/v1/common/updater/{os}/{version}': '/v1/common/updater/mac/1.0.0',
    '/v1/common/pcupdater/{file}': '/v1/common/pcupdater/latest-mac.yml',
    '/v1/admin/min-versions/{os}': '/v1/admin/min-versions/android',
    '/v1/admin/rollouts/{os}': '/v1/admin/rollouts/windows',
    '/v1/admin/rollouts/{os}/halt': '/v1/admin/rollouts/windows/halt',
    '/v1/admin/rollouts/{os}/resume': '/v1/admin/rollouts/windows/resume',
  };
  // A staged roll-out of Windows, from the release before it; iOS has none.
  const staged = async () => {
    await release('windows', { url: 'https://dl.example.com/full.exe', version: '8.0.0' });
    await release('windows', { url: 'https://dl.example.com/staged.exe', version: '9.0.0', rollout_percentage: 10 });
  };
  const rollout = (action: 'halt' | 'resume') => async () => {
    await staged();
    return [
      ok({ method: 'POST', url: `/v1/admin/rollouts/windows/${action}`, headers: bearer }),
      ok({ method: 'POST', url: `/v1/admin/rollouts/ios/${action}`, headers: bearer }, 409),
    ];
  };
  const get = (url: string, headers: Record<string, string> = {}): InjectOptions => ({ url, headers });
  const admin = (url: string) => get(url, bearer);
  const ok = (request: InjectOptions, status = 200): Call => ({ status, request });
  const preview = (method: 'GET' | 'HEAD') => async () => {
    const url = samples['/v1/file/preview/{key}'] ?? '';
    const etag = String((await t.app.inject(url)).headers.etag);
    return [
      ok({ method, url }),
      ok({ method, url, headers: { range: 'bytes=0-3' } }, 206),
      ok({ method, url, headers: { 'if-none-match': etag } }, 304),
      ok({ method, url, headers: { range: 'bytes=99999-' } }, 416),
      ok({ method, url: `/v1/file/preview/${electronKey}.blockmap` }, 302),
      ok({ method, url: '/v1/file/preview/nothing-here' }, 404),
      ok({ method, url: '/v1/file/preview/%zz' }, 400),
      ok({ method, url: `/v1/file/preview/${'k'.repeat(201)}` }, 414),
    ];
  };
  const deleted = async () => {
    const id = (await inject(json('POST', '/v1/admin/bulletins', bulletin), 201)).json<{ id: number }>().id;
    await inject({ method: 'DELETE', url: `/v1/admin/bulletins/${id}`, headers: bearer }, 204);
    return id;
  };
  const calls: Record<string, () => Promise<Call[]>> = {
    'GET /v1/ping': async () => [ok(get('/v1/ping'))],
    'GET /v1/common/appconfig': async () => [ok(get('/v1/common/appconfig'))],
    'GET /v1/region': async () => [ok(get('/v1/region'))],
    'GET /v1/bulletin/page': async () => [ok(get('/v1/bulletin/page')), ok(get('/v1/bulletin/page?page_size=0'), 400)],
    'GET /v1/bulletin/detail': async () => [
      ok(get(`/v1/bulletin/detail?id=${bulletinId}`)),
      ok(get('/v1/bulletin/detail?id=x'), 400),
      ok(get('/v1/bulletin/detail?id=999999'), 404),
    ],
    'GET /v1/common/getInstallPackageAddrs': async () => [
      ok(get('/v1/common/getInstallPackageAddrs')),
      ok(get(`/v1/common/getInstallPackageAddrs?lang=${'x'.repeat(36)}`), 400),
    ],
    'GET /v1/common/changelog': async () => [
      ok(get('/v1/common/changelog')),
      ok(get(`/v1/common/changelog?lang=${'x'.repeat(36)}`), 400),
    ],
    'GET /v1/common/appversion/{os}/{version}': async () => [
      ok(get('/v1/common/appversion/mac/1.0.0')),
      ok(get('/v1/common/appversion/symbian/1.0.0')),
      // Past the router's limit on a parameter: answered, not 414 (update-edges.test.ts).
      ok(get(`/v1/common/appversion/mac/${'1'.repeat(201)}`)),
    ],
    'GET /v1/common/updater/{os}/{version}': async () => [
      ok(get('/v1/common/updater/darwin/1.0.0')),
      ok(get('/v1/common/updater/darwin/99.0.0'), 204),
      ok(get('/v1/common/updater/linux/1.0.0'), 204),
      ok(get(`/v1/common/updater/${'k'.repeat(201)}/1.0.0`), 204),
    ],
    'GET /v1/common/pcupdater/{file}': async () => [
      ok(get('/v1/common/pcupdater/latest-mac.yml')),
      ok(get('/v1/common/pcupdater/latest-linux.yml'), 404),
    ],
    'GET /v1/file/preview/{key}': preview('GET'),
    'HEAD /v1/file/preview/{key}': preview('HEAD'),
    'GET /v1/openapi.json': async () => [ok(get('/v1/openapi.json'))],
    'POST /v1/admin/session': async () => {
      const sign = (password: string, headers: Record<string, string>, remoteAddress = '192.0.2.1') => ({
        ...json('POST', '/v1/admin/session', { name: 'alice', password }, headers),
        remoteAddress,
      });
      const wrong = sign('wrong-password', { origin }, '192.0.2.2');
      return [
        ok(sign('alice-password-1', { origin })),
        ok(sign('alice-password-1', { origin: 'https://elsewhere.example' }), 403),
        ok(wrong, 401),
        ok(wrong, 401),
        ok(wrong, 401),
        ok(wrong, 429),
      ];
    },
    'GET /v1/admin/session': async () => [ok(admin('/v1/admin/session'))],
    'DELETE /v1/admin/session': async () => [ok({ method: 'DELETE', url: '/v1/admin/session', headers: bearer }, 204)],
    'PUT /v1/admin/session/password': async () => {
      const name = 'carol';
      const headers = { cookie: await cookieOf(name, 'editor'), origin };
      const change = (current: string, more = headers) =>
        json('PUT', '/v1/admin/session/password', { current, next: 'a-new-password-1' }, more);
      return [ok(change('wrong-password'), 400), ok(change(`${name}-password-1`), 204)];
    },
    'GET /v1/admin/audit': async () => [ok(admin('/v1/admin/audit')), ok(admin('/v1/admin/audit?page_size=0'), 400)],
    'GET /v1/admin/bulletins': async () => [
      ok(admin('/v1/admin/bulletins')),
      ok(admin('/v1/admin/bulletins?filter=bogus'), 400),
    ],
    'POST /v1/admin/bulletins': async () => [ok(json('POST', '/v1/admin/bulletins', bulletin), 201)],
    'GET /v1/admin/bulletins/{id}': async () => [
      ok(admin(`/v1/admin/bulletins/${bulletinId}`)),
      ok(admin('/v1/admin/bulletins/x'), 400),
      ok(admin('/v1/admin/bulletins/999999'), 404),
    ],
    'PUT /v1/admin/bulletins/{id}': async () => [
      ok(json('PUT', `/v1/admin/bulletins/${bulletinId}`, { title: 'Hello again' })),
      ok(json('PUT', '/v1/admin/bulletins/999999', { title: 'Nobody' }), 404),
      ok(json('PUT', `/v1/admin/bulletins/${bulletinId}`, { title: 'Stale', version: 1 }), 409),
    ],
    'DELETE /v1/admin/bulletins/{id}': async () => {
      const id = await deleted();
      await inject({ method: 'POST', url: `/v1/admin/bulletins/${id}/restore`, headers: bearer }, 200);
      return [
        ok({ method: 'DELETE', url: `/v1/admin/bulletins/${id}`, headers: bearer }, 204),
        ok({ method: 'DELETE', url: '/v1/admin/bulletins/999999', headers: bearer }, 404),
      ];
    },
    'POST /v1/admin/bulletins/{id}/duplicate': async () => [
      ok({ method: 'POST', url: `/v1/admin/bulletins/${bulletinId}/duplicate`, headers: bearer }, 201),
      ok({ method: 'POST', url: '/v1/admin/bulletins/999999/duplicate', headers: bearer }, 404),
    ],
    'POST /v1/admin/bulletins/{id}/restore': async () => [
      ok({ method: 'POST', url: `/v1/admin/bulletins/${await deleted()}/restore`, headers: bearer }),
      ok({ method: 'POST', url: '/v1/admin/bulletins/999999/restore', headers: bearer }, 404),
    ],
    'GET /v1/admin/bulletins/{id}/revisions': async () => [
      ok(admin(`/v1/admin/bulletins/${bulletinId}/revisions`)),
      ok(admin('/v1/admin/bulletins/999999/revisions'), 404),
    ],
    'GET /v1/admin/bulletins/{id}/revisions/{revision}': async () => [
      ok(admin(`/v1/admin/bulletins/${bulletinId}/revisions/${revisionId}`)),
      ok(admin(`/v1/admin/bulletins/${bulletinId}/revisions/999999`), 404),
    ],
    'POST /v1/admin/bulletins/{id}/revisions/{revision}/restore': async () => {
      const url = `/v1/admin/bulletins/${bulletinId}/revisions/${revisionId}/restore`;
      const { version } = (await inject(admin(`/v1/admin/bulletins/${bulletinId}`), 200)).json<{ version: number }>();
      return [
        ok(json('POST', url, { version: 1 }), 409),
        ok(json('POST', url, { version })),
        ok(json('POST', `/v1/admin/bulletins/${bulletinId}/revisions/999999/restore`, {}), 404),
      ];
    },
    'GET /v1/admin/bulletins/trash': async () => [
      ok(admin('/v1/admin/bulletins/trash')),
      ok(admin('/v1/admin/bulletins/trash?page_size=0'), 400),
    ],
    'DELETE /v1/admin/bulletins/trash/{id}': async () => [
      ok({ method: 'DELETE', url: `/v1/admin/bulletins/trash/${await deleted()}`, headers: bearer }, 204),
      ok({ method: 'DELETE', url: '/v1/admin/bulletins/trash/999999', headers: bearer }, 404),
    ],
    'PUT /v1/admin/packages': async () => {
      const list = (await t.app.inject('/v1/common/getInstallPackageAddrs')).json<object[]>();
      return [ok(json('PUT', '/v1/admin/packages', list)), ok(json('PUT', '/v1/admin/packages', [{ OS: 'x' }]), 400)];
    },
    'GET /v1/admin/releases': async () => [ok(admin('/v1/admin/releases'))],
    'PUT /v1/admin/min-versions/{os}': async () => [
      ok(json('PUT', '/v1/admin/min-versions/android', { min_version: '1.0.0' })),
      ok(json('PUT', '/v1/admin/min-versions/android', { min_version: 'soon' }), 400),
    ],
    'POST /v1/admin/releases': async () => [
      ok(
        json('POST', '/v1/admin/releases', { os: 'windows', url: 'https://dl.example.com/a.exe', version: '1.0' }),
        201,
      ),
    ],
    'POST /v1/admin/releases/{id}/rollback': async () => [
      ok({ method: 'POST', url: `/v1/admin/releases/${iosRelease}/rollback`, headers: bearer }),
      ok({ method: 'POST', url: '/v1/admin/releases/999999/rollback', headers: bearer }, 404),
      ok({ method: 'POST', url: `/v1/admin/releases/${goneRelease}/rollback`, headers: bearer }, 409),
    ],
    'GET /v1/admin/site-config': async () => [ok(admin('/v1/admin/site-config'))],
    'POST /v1/admin/settings/cdn-check': async () => [
      ok(json('POST', '/v1/admin/settings/cdn-check', { url: 'http://127.0.0.1:9/', timeout_ms: 500 })),
    ],
    'PUT /v1/admin/appconfig': async () => [
      ok(json('PUT', '/v1/admin/appconfig', { use_cdn: 0, common_cdn_bucket_url: '' })),
    ],
    'GET /v1/admin/listing': async () => [ok(admin('/v1/admin/listing'))],
    'PUT /v1/admin/listing': async () => [ok(json('PUT', '/v1/admin/listing', emptySiteListing))],
    'PUT /v1/admin/region': async () => [
      ok(json('PUT', '/v1/admin/region', { api_addrs: [{ addr: origin }], allocator_addrs: [] })),
    ],
    'POST /v1/admin/files': async () => {
      const post = (name: string, headers: Record<string, string>, payload: Buffer) => ({
        method: 'POST' as const,
        url: `/v1/admin/files?name=${name}`,
        headers: { ...bearer, ...headers },
        payload,
      });
      return [
        ok(post('dot2.png', { 'content-type': 'image/png' }, png), 201),
        ok(
          {
            ...post('app.apk', { 'content-type': 'application/octet-stream' }, apk),
            headers: { cookie: editorCookie, origin, 'content-type': 'application/octet-stream' },
          },
          403,
        ),
        ok(post('big.png', { 'content-type': 'image/png' }, Buffer.concat([png, Buffer.alloc(6 * 1024 * 1024)])), 413),
        ok(post('gz.png', { 'content-type': 'image/png', 'content-encoding': 'gzip' }, png), 415),
      ];
    },
    'GET /v1/admin/files': async () => [ok(admin('/v1/admin/files')), ok(admin('/v1/admin/files?page_size=0'), 400)],
    'DELETE /v1/admin/files/{key}': async () => {
      const key = await upload('spare.png', Buffer.concat([png, Buffer.from('spare')]), 'image/png');
      return [
        ok({ method: 'DELETE', url: `/v1/admin/files/${key}`, headers: bearer }, 204),
        ok({ method: 'DELETE', url: '/v1/admin/files/nothing-here', headers: bearer }, 404),
        ok({ method: 'DELETE', url: `/v1/admin/files/${usedKey}`, headers: bearer }, 409),
      ];
    },
    'PUT /v1/admin/rollouts/{os}': async () => {
      await staged();
      return [
        ok(json('PUT', '/v1/admin/rollouts/windows', { percentage: 20 })),
        ok(json('PUT', '/v1/admin/rollouts/windows', { percentage: 0 }), 400),
        ok(json('PUT', '/v1/admin/rollouts/ios', { percentage: 20 }), 409),
      ];
    },
    'POST /v1/admin/rollouts/{os}/halt': rollout('halt'),
    'POST /v1/admin/rollouts/{os}/resume': rollout('resume'),
    'GET /v1/admin/stats/updates': async () => [
      ok(admin('/v1/admin/stats/updates?os=android')),
      ok(admin('/v1/admin/stats/updates?os=linux'), 400),
    ],
    'GET /v1/admin/stats/downloads': async () => [
      ok(admin('/v1/admin/stats/downloads')),
      ok(admin('/v1/admin/stats/downloads?days=5'), 400),
    ],
    ...uploadCalls({ inject, uploadDir }),
    'GET /healthz': async () => [ok(get('/healthz'))],
    'GET /readyz': async () => [ok(get('/readyz')), ...(await notReady())],
    'GET /dl/{os}': async () => [
      ok(get('/dl/android'), 302),
      // WeChat's browser would drop the APK: the guide page instead (docs/site.md#in-app-browsers).
      ok(get('/dl/android', { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) MicroMessenger/8.0.50' }), 200),
      ok(get('/dl/plan9'), 404),
      ok(get(`/dl/${'x'.repeat(40)}`), 400),
    ],
    'POST /dl/in-app/{event}': async () => [
      ok({ method: 'POST', url: '/dl/in-app/guide' }, 204),
      ok({ method: 'POST', url: '/dl/in-app/share' }, 400),
    ],
    'GET /': async () => [ok(get('/'))],
    'GET /index.html': async () => [ok(get('/index.html'))],
    'GET /feed.atom': async () => [ok(get('/feed.atom'))],
    'GET /feed.rss': async () => [ok(get('/feed.rss'))],
    'GET /changelog.atom': async () => [ok(get('/changelog.atom'))],
    'GET /a/continue.js': async () => [ok(get('/a/continue.js'))],
    'GET /a/{id}': async () => [ok(get(`/a/${bulletinId}`)), ok(get('/a/999999'), 404)],
    'GET /a/{id}/picture.png': async () => {
      const etag = String((await inject(get(`/a/${bulletinId}/picture.png`), 200)).headers.etag);
      return [
        ok(get(`/a/${bulletinId}/picture.png`)),
        ok(get(`/a/${bulletinId}/picture.png`, { 'if-none-match': etag }), 304),
        ok(get('/a/999999/picture.png'), 404),
        ok(get(`/a/${bulletinId}/picture.png?v=${'x'.repeat(65)}`), 400),
      ];
    },
    'GET /site-picture.png': async () => {
      const etag = String((await inject(get('/site-picture.png'), 200)).headers.etag);
      return [
        ok(get('/site-picture.png')),
        ok(get('/site-picture.png', { 'if-none-match': etag }), 304),
        ok(get(`/site-picture.png?v=${'x'.repeat(65)}`), 400),
      ];
    },
    'GET /sitemap.xml': async () => [ok(get('/sitemap.xml'))],
    'GET /robots.txt': async () => [ok(get('/robots.txt'))],
  };

  /** /readyz of a server whose database is gone: a 503, asked of this app's own route. */
  let broken: TestApp | undefined;
  async function notReady(): Promise<Call[]> {
    broken = await startTestApp();
    await broken.db.close();
    return [{ status: 503, request: get('/readyz'), via: broken.app }];
  }

  return {
    t,
    adminCookie,
    editorCookie,
    sample: (path) => samples[path] ?? path,
    calls,
    close: async () => {
      // Its database is closed already; closing again is harmless, and drops the database.
      await broken?.close();
      await t.close();
      rmSync(uploadDir, { recursive: true, force: true });
    },
  };
}
