/**
 * Limits a hostile client meets: body and upload sizes, the kinds of file that may be uploaded
 * and how stored files are served, slow and stalled clients (against the real built server,
 * over raw sockets), and the admin API's door: the token, and the lock-out after failed attempts.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { BulletinPage } from '@chat-site/contract';
import { emptySiteListing } from '@chat-site/contract/admin';
import { ConfigError, loadConfig } from '../src/config.js';
import { imageTypes, looksLikeImage, packageTypes } from '../src/files/content-types.js';
import { bytesBody, storeFile } from '../src/files/repository.js';
import { storageFor } from '../src/storage/index.js';
import {
  clientKey,
  bearerTokenChecker,
  FailureLimiter,
  isUnstorableText,
  tooManyFailures,
  unstorableTextPath,
} from '../src/pipeline/admin-guard.js';
import {
  adminToken,
  bearer,
  createTestDatabase,
  repoRoot,
  spawnServer,
  startTestApp,
  testEnv,
  wrongAuthorizations,
  type TestApp,
} from './helpers.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface ErrorAnswer {
  status: number;
  msg: string;
}

/** A small but real-looking file of every image type the admin API accepts. */
const samples: Record<string, Buffer> = {
  'image/png': Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ),
  'image/jpeg': Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0rest')]),
  'image/gif': Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff])]),
  'image/webp': Buffer.concat([Buffer.from('RIFF'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8L\r\0\0\0/\0')]),
  'image/avif': Buffer.concat([Buffer.from([0, 0, 0, 0x1c]), Buffer.from('ftypavif\0\0\0\0avifmif1miaf')]),
  'image/x-icon': Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0]),
  'image/svg+xml': Buffer.from(
    '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)">' +
      '<script>alert(document.cookie)</script><foreignObject><html><body><script>alert(2)</script></body></html>' +
      '</foreignObject></svg>',
  ),
};
const extensionFor = (type: string) => Object.entries(imageTypes).find(([, t]) => t === type)?.[0] ?? 'bin';

function assertJsonError(res: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = JSON.parse(res.body) as ErrorAnswer;
  // An admin refusal: {status, msg} and its code, with a field and numbers where they apply
  // (docs/console.md#error-codes).
  const extra = Object.keys(body).filter((key) => !['msg', 'status', 'code'].includes(key));
  assert.deepEqual(
    extra.filter((key) => !['field', 'limit', 'size'].includes(key)),
    [],
  );
  assert.equal(typeof (body as { code?: unknown }).code, 'string');
  assert.equal(body.status, status);
  assert.equal(typeof body.msg, 'string');
}

describe('body and upload limits', () => {
  let t: TestApp;
  const uploadMaxBytes = 4096;
  before(async () => {
    t = await startTestApp({ env: { UPLOAD_MAX_BYTES: String(uploadMaxBytes) } });
  });
  after(() => t.close());

  const upload = (name: string, type: string, payload: Buffer | string) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/admin/files?name=${encodeURIComponent(name)}`,
      headers: { ...bearer, 'content-type': type },
      payload,
    });
  const fileCount = async () =>
    Number(
      (
        await t.db.kysely
          .selectFrom('stored_files')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test('a JSON body over 1 MiB is a 413 JSON error, on every admin route, and stores nothing', async () => {
    const huge = 'x'.repeat(1024 * 1024);
    const attempts: [Method, string, unknown][] = [
      ['POST', '/v1/admin/bulletins', { title: 'big', content: huge }],
      ['PUT', '/v1/admin/bulletins/1', { content: huge }],
      ['PUT', '/v1/admin/packages', [{ OS: 'ios', DownloadURL: `https://x.example/${huge}` }]],
      ['PUT', '/v1/admin/appconfig', { use_cdn: 0, common_cdn_bucket_url: `https://x.example/${huge}` }],
      ['PUT', '/v1/admin/region', { api_addrs: [{ addr: `https://x.example/${huge}` }], allocator_addrs: [] }],
    ];
    for (const [method, url, payload] of attempts) {
      const res = await t.app.inject({ method, url, headers: bearer, payload: payload as object });
      assertJsonError(res, 413);
    }
    assert.equal((await t.app.inject('/v1/bulletin/page')).json<BulletinPage>().count, 0);
  });

  test('just under the limit is read; the limit is on bytes, not characters', async () => {
    const ok = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/bulletins',
      headers: bearer,
      payload: { title: 'fits', content: 'x'.repeat(1_000_000) },
    });
    assert.equal(ok.statusCode, 201, ok.body);
    // 400 000 three-byte characters: under a million characters, over a MiB of UTF-8.
    const wide = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/bulletins',
      headers: bearer,
      payload: { title: 'wide', content: '公'.repeat(400_000) },
    });
    assertJsonError(wide, 413);
  });

  test('an upload over UPLOAD_MAX_BYTES is a 413 JSON error and stores nothing', async () => {
    const png = samples['image/png'] as Buffer;
    const tooBig = Buffer.concat([png, Buffer.alloc(uploadMaxBytes + 1 - png.byteLength)]);
    assertJsonError(await upload('big.png', 'image/png', tooBig), 413);
    const exactly = Buffer.concat([png, Buffer.alloc(uploadMaxBytes - png.byteLength)]);
    assert.equal((await upload('max.png', 'image/png', exactly)).statusCode, 201);
    assert.equal(await fileCount(), 1);
  });

  test('types that are not images are refused with a JSON error and nothing is stored', async () => {
    const before = await fileCount();
    const html = '<!doctype html><html><body><script>alert(1)</script></body></html>';
    for (const [name, type] of [
      ['a.html', 'text/html'],
      ['a.html', 'text/html; charset=utf-8'],
      ['a.htm', 'application/xhtml+xml'],
      ['a.js', 'application/javascript'],
      ['a.js', 'text/javascript'],
      ['a.xml', 'text/xml'],
      ['a.png', 'text/html'],
      ['a.svg', 'text/plain'],
      ['a.png', 'application/octet-stream'],
      ['a.png', 'multipart/form-data; boundary=x'],
      ['a.png', 'application/json'],
      ['a.pdf', 'application/pdf'],
    ]) {
      const res = await upload(name as string, type as string, html);
      assert.ok([400, 415].includes(res.statusCode), `${name} as ${type}: ${res.statusCode} ${res.body}`);
      assertJsonError(res, res.statusCode);
    }
    assert.equal(await fileCount(), before);
  });

  test('bytes that are not the image their type claims are a 400, for every image type', async () => {
    const before = await fileCount();
    const impostors: [string, Buffer][] = [
      ['HTML', Buffer.from('<html><script>alert(1)</script></html>')],
      ['a script', Buffer.from('alert(1)')],
      ['an SVG', samples['image/svg+xml'] as Buffer],
      ['a PNG', samples['image/png'] as Buffer],
      ['a GIF', samples['image/gif'] as Buffer],
      ['NUL bytes', Buffer.alloc(64)],
    ];
    for (const type of new Set(Object.values(imageTypes))) {
      for (const [label, bytes] of impostors) {
        if (bytes === samples[type] || (type === 'image/x-icon' && label === 'NUL bytes')) continue;
        const res = await upload(`a.${extensionFor(type)}`, type, bytes);
        assertJsonError(res, 400);
      }
    }
    // The extension and the type must agree too.
    assertJsonError(await upload('a.svg', 'image/png', samples['image/png'] as Buffer), 400);
    assertJsonError(await upload('a.html', 'image/png', samples['image/png'] as Buffer), 400);
    assert.equal(await fileCount(), before);
  });

  test('every accepted image is served as its own image type with a sandbox CSP and nosniff', async () => {
    for (const [type, bytes] of Object.entries(samples)) {
      const res = await upload(`sample.${extensionFor(type)}`, type, bytes);
      assert.equal(res.statusCode, 201, `${type}: ${res.body}`);
      const served = await t.app.inject(`/v1/${res.json<{ path: string }>().path}`);
      assert.equal(served.statusCode, 200);
      assert.equal(served.headers['content-type'], type);
      assert.match(String(served.headers['content-security-policy']), /(^|;)\s*sandbox\s*(;|$)/);
      assert.match(String(served.headers['content-security-policy']), /default-src 'none'/);
      assert.equal(served.headers['x-content-type-options'], 'nosniff');
      assert.deepEqual(served.rawPayload, bytes);
    }
  });

  test('an SVG with scripts is kept as image/svg+xml, never served as HTML, and cannot run', async () => {
    const svg = samples['image/svg+xml'] as Buffer;
    const res = await upload('evil.svg', 'image/svg+xml', svg);
    assert.equal(res.statusCode, 201, res.body);
    // Asking for HTML changes nothing.
    const served = await t.app.inject({
      url: `/v1/${res.json<{ path: string }>().path}`,
      headers: { accept: 'text/html' },
    });
    assert.equal(served.headers['content-type'], 'image/svg+xml');
    const csp = String(served.headers['content-security-policy']);
    assert.match(csp, /(^|;)\s*sandbox\s*(;|$)/);
    assert.doesNotMatch(csp, /script-src/);
    assert.doesNotMatch(csp, /allow-scripts/);
    assert.equal(served.headers['x-content-type-options'], 'nosniff');
  });

  test('a PNG with HTML inside stays image/png', async () => {
    const polyglot = Buffer.concat([samples['image/png'] as Buffer, Buffer.from('<html><script>alert(1)</script>')]);
    const res = await upload('poly.png', 'image/png', polyglot);
    assert.equal(res.statusCode, 201);
    const served = await t.app.inject(`/v1/${res.json<{ path: string }>().path}`);
    assert.equal(served.headers['content-type'], 'image/png');
    assert.equal(served.headers['x-content-type-options'], 'nosniff');
  });

  test('GET /v1/file/preview/<key> never answers text/html for any stored file', async () => {
    // Stored as they are, without the checks of an upload: whatever a file holds, it is not HTML.
    for (const [extension, contentType] of Object.entries(packageTypes)) {
      await storeFile(t.db.kysely, storageFor(t.config.storage), {
        name: `package.${extension}`,
        contentType,
        body: bytesBody(Buffer.from(`<html><script>alert("${extension}")</script></html>`)),
        rules: { maxBytes: 1024 },
        uploadedBy: null,
      });
    }
    const rows = await t.db.kysely.selectFrom('stored_files').select(['key', 'content_type']).execute();
    assert.ok(rows.length >= Object.keys(samples).length + Object.keys(packageTypes).length - 1);
    for (const { key, content_type } of rows) {
      const served = await t.app.inject(`/v1/file/preview/${key}`);
      assert.equal(served.statusCode, 200, key);
      const type = String(served.headers['content-type']);
      assert.doesNotMatch(type, /html|^text\/|javascript|ecmascript|^application\/xml/i, key);
      assert.equal(type, content_type);
      assert.match(String(served.headers['content-security-policy']), /(^|;)\s*sandbox\s*(;|$)/, key);
      assert.equal(served.headers['x-content-type-options'], 'nosniff', key);
      const disposition = String(served.headers['content-disposition']);
      assert.match(disposition, type.startsWith('image/') ? /^inline;/ : /^attachment;/, key);
    }
  });
});

describe('slow and stalled clients (the real server, raw sockets)', () => {
  const headersTimeoutMs = 500;
  const requestTimeoutMs = 1500;
  let server: Awaited<ReturnType<typeof spawnServer>>;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let port: number;
  before(async () => {
    database = await createTestDatabase();
    server = await spawnServer(
      testEnv(database, { HEADERS_TIMEOUT_MS: String(headersTimeoutMs), REQUEST_TIMEOUT_MS: String(requestTimeoutMs) }),
    );
    port = Number(new URL(server.url).port);
  });
  after(async () => {
    await server.stop();
    await database.drop();
  });

  interface Outcome {
    /** Milliseconds from connecting until the server closed the connection. */
    closedAfterMs: number;
    received: string;
  }

  /** Opens a raw connection, lets `talk` write to it, and resolves when the server closes it. */
  function rawClient(talk: (write: (text: string) => boolean) => void, giveUpMs = 15_000): Promise<Outcome> {
    return new Promise((done, fail) => {
      const started = performance.now();
      const socket = connect(port, '127.0.0.1');
      let received = '';
      const timer = setTimeout(() => {
        socket.destroy();
        fail(new Error(`the server kept the connection open for ${giveUpMs} ms; received ${JSON.stringify(received)}`));
      }, giveUpMs);
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (received += chunk));
      socket.on('error', () => {}); // a reset is one way of being cut off
      socket.on('close', () => {
        clearTimeout(timer);
        done({ closedAfterMs: performance.now() - started, received });
      });
      socket.on('connect', () => talk((text) => !socket.destroyed && socket.write(text)));
    });
  }

  function assertTimedOut(outcome: Outcome, limitMs: number, label: string) {
    // Node checks at most every quarter of the headers timeout (at most every second): allow that
    // and some scheduling slack, but no more.
    assert.ok(outcome.closedAfterMs >= limitMs - 50, `${label}: cut off too early, ${outcome.closedAfterMs} ms`);
    assert.ok(outcome.closedAfterMs < limitMs + 1500, `${label}: cut off late, ${outcome.closedAfterMs} ms`);
    if (outcome.received !== '') {
      assert.match(outcome.received, /^HTTP\/1\.1 408 /, label);
      const body = outcome.received.slice(outcome.received.indexOf('\r\n\r\n') + 4);
      assert.deepEqual(JSON.parse(body), { status: 408, msg: 'Request Timeout' }, label);
    }
  }

  const ping = async () => {
    const started = performance.now();
    const res = await fetch(`${server.url}/v1/ping`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 200 });
    return performance.now() - started;
  };

  test('a client that never finishes its headers is cut off after HEADERS_TIMEOUT_MS', async () => {
    const trickling = rawClient((write) => {
      write('GET /v1/ping HTTP/1.1\r\nHost: localhost\r\n');
      // Slowloris: a header line now and then, never the blank line that ends them.
      const timer = setInterval(() => write(`X-Slow-${Date.now()}: 1\r\n`) || clearInterval(timer), 50);
    });
    const silent = rawClient(() => {});
    const halfLine = rawClient((write) => write('GET /v1/pi'));
    for (const [label, outcome] of [
      ['trickling headers', await trickling],
      ['sending nothing', await silent],
      ['half a request line', await halfLine],
    ] as const) {
      assertTimedOut(outcome, headersTimeoutMs, label);
    }
  });

  test('a client that stalls in its body is answered 408 and cut off after REQUEST_TIMEOUT_MS', async () => {
    const stalledJson = rawClient((write) =>
      write(
        'POST /v1/admin/bulletins HTTP/1.1\r\nHost: localhost\r\n' +
          `Authorization: Bearer ${adminToken}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n` +
          '{"title":"never finished',
      ),
    );
    const stalledUpload = rawClient((write) => {
      write(
        'POST /v1/admin/files?name=slow.png HTTP/1.1\r\nHost: localhost\r\n' +
          `Authorization: Bearer ${adminToken}\r\nContent-Type: image/png\r\nContent-Length: 4000\r\n\r\n`,
      );
      // A byte now and then: trickling does not buy more time.
      const timer = setInterval(() => write('x') || clearInterval(timer), 100);
    });
    const [json, png] = await Promise.all([stalledJson, stalledUpload]);
    assertTimedOut(json, requestTimeoutMs, 'stalled JSON body');
    assertTimedOut(png, requestTimeoutMs, 'trickled upload');
    assert.match(json.received, /^HTTP\/1\.1 408 /);
    assert.match(png.received, /^HTTP\/1\.1 408 /);
    const stored = await fetch(`${server.url}/v1/bulletin/page`);
    assert.equal(((await stored.json()) as BulletinPage).count, 0);
  });

  test('meanwhile, other clients are served at once', async () => {
    const stalled: Promise<Outcome>[] = [];
    // Each stalled client is connected and has sent its part before the pings go.
    const sent: Promise<void>[] = [];
    for (let i = 0; i < 50; i++) {
      let wrote = () => {};
      sent.push(new Promise((resolve) => (wrote = resolve)));
      stalled.push(
        rawClient((write) => {
          write(
            i % 2 === 0
              ? 'GET /v1/ping HTTP/1.1\r\nHost: localhost\r\n'
              : 'POST /v1/admin/bulletins HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\n\r\n{',
          );
          wrote();
        }),
      );
    }
    await Promise.all(sent);
    for (let i = 0; i < 5; i++) assert.ok((await ping()) < 400, 'ping was slow while others stalled');
    const outcomes = await Promise.all(stalled);
    for (const outcome of outcomes) assert.ok(outcome.closedAfterMs < requestTimeoutMs + 1500);
    await ping();
    assert.equal(server.child.exitCode, null, 'the server is still running');
  });

  test('a request that is sent briskly is not cut off', async () => {
    const outcome = await rawClient((write) =>
      write('GET /v1/ping HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'),
    );
    assert.match(outcome.received, /^HTTP\/1\.1 200 /);
    assert.ok(outcome.received.endsWith('{"status":200}'));
  });
});

describe('timeout and lock-out settings', () => {
  const env = { SITE_CONFIG: `${repoRoot}/site.config.json` };
  test('defaults: 30 s per request, 10 s for headers, 10 failures per 15 minutes', () => {
    const config = loadConfig(env);
    assert.equal(config.requestTimeoutMs, 30_000);
    assert.equal(config.headersTimeoutMs, 10_000);
    assert.equal(config.adminMaxFailures, 10);
    assert.equal(config.adminClientMaxFailures, 30);
    assert.equal(config.adminAccountMaxFailures, 100);
    assert.equal(config.adminFailureWindowMs, 900_000);
  });

  test('reads them from the environment', () => {
    const config = loadConfig({
      ...env,
      REQUEST_TIMEOUT_MS: '60000',
      HEADERS_TIMEOUT_MS: '5000',
      ADMIN_MAX_FAILURES: '3',
      ADMIN_FAILURE_WINDOW_MS: '60000',
    });
    assert.equal(config.requestTimeoutMs, 60_000);
    assert.equal(config.headersTimeoutMs, 5000);
    assert.equal(config.adminMaxFailures, 3);
    assert.equal(config.adminClientMaxFailures, 9, 'three times ADMIN_MAX_FAILURES unless set');
    assert.equal(config.adminAccountMaxFailures, 30, 'ten times ADMIN_MAX_FAILURES unless set');
    assert.equal(config.adminFailureWindowMs, 60_000);
    const set = loadConfig({ ...env, ADMIN_CLIENT_MAX_FAILURES: '20', ADMIN_ACCOUNT_MAX_FAILURES: '500' });
    assert.equal(set.adminClientMaxFailures, 20);
    assert.equal(set.adminAccountMaxFailures, 500);
  });

  test('refuses bad values, naming each, and a headers timeout longer than the request timeout', () => {
    const problemsOf = (extra: Record<string, string>) => {
      try {
        loadConfig({ ...env, ...extra });
      } catch (error) {
        assert.ok(error instanceof ConfigError);
        return error.problems;
      }
      return assert.fail('expected the configuration to be refused');
    };
    const problems = problemsOf({
      REQUEST_TIMEOUT_MS: '0',
      HEADERS_TIMEOUT_MS: 'soon',
      ADMIN_MAX_FAILURES: '-1',
      ADMIN_FAILURE_WINDOW_MS: '1.5',
    });
    for (const name of ['REQUEST_TIMEOUT_MS', 'HEADERS_TIMEOUT_MS', 'ADMIN_MAX_FAILURES', 'ADMIN_FAILURE_WINDOW_MS']) {
      assert.ok(
        problems.some((p) => p.startsWith(name)),
        `${name} missing from ${problems.join('\n')}`,
      );
    }
    assert.equal(loadConfig({ ...env, REQUEST_TIMEOUT_MS: '5000' }).headersTimeoutMs, 5000, 'the default follows');
    assert.deepEqual(
      problemsOf({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: 'soon' }).map((p) => p.split(' ')[0]),
      ['HEADERS_TIMEOUT_MS'],
    );
    assert.match(
      problemsOf({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' }).join('\n'),
      /HEADERS_TIMEOUT_MS \(6000\) must not be longer than REQUEST_TIMEOUT_MS \(5000\)/,
    );
  });
});

/** Every admin route the app has, read from its route tree, so that a new one is tried too. */
function adminRoutes(tree: string): [Method, string][] {
  const routes: [Method, string][] = [];
  const paths: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (match === null) continue;
    const depth = (match[1] ?? '').length / 4;
    const path = (paths[depth - 1] ?? '') + (depth > 0 && !(match[2] ?? '').startsWith('/') ? '/' : '') + match[2];
    paths[depth] = path.replace(/^\/\//, '/');
    for (const method of (match[3] ?? '').split(', ')) {
      // The console's own session routes are for signed-in operators (server/test/accounts.test.ts).
      const forToken = paths[depth]?.startsWith('/v1/admin/') && !paths[depth]?.startsWith('/v1/admin/session');
      if (forToken && ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].includes(method)) {
        routes.push([method as Method, paths[depth] as string]);
      }
    }
  }
  return routes;
}

describe('the admin door', () => {
  let t: TestApp;
  const windowMs = 1000;
  // The door's clock: moved past a window instead of waiting it out.
  let ahead = 0;
  before(async () => {
    t = await startTestApp({
      demo: true,
      clock: () => new Date(Date.now() + ahead),
      env: { ADMIN_MAX_FAILURES: '10', ADMIN_FAILURE_WINDOW_MS: String(windowMs) },
    });
    // A file nothing uses, for DELETE /v1/admin/files/:key to remove.
    await t.app.inject({
      method: 'POST',
      url: '/v1/admin/files?name=ok.png',
      headers: { ...bearer, 'content-type': 'image/png' },
      payload: samples['image/png'],
    });
  });
  after(() => t.close());

  const snapshot = async () =>
    JSON.stringify([
      await t.db.kysely.selectFrom('bulletins').selectAll().orderBy('id').execute(),
      await t.db.kysely.selectFrom('install_packages').selectAll().orderBy('os').execute(),
      await t.db.kysely.selectFrom('settings').selectAll().orderBy('key').execute(),
      await t.db.kysely.selectFrom('stored_files').select(['key', 'sha256']).orderBy('key').execute(),
    ]);
  const png = samples['image/png'] as Buffer;
  const unusedKey = `${createHash('sha256').update(png).digest('hex').slice(0, 16)}-ok.png`;
  /** A resumable upload of ten bytes, made with the token from an address no test locks out. */
  const newUpload = async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/uploads',
      remoteAddress: '192.0.2.250',
      headers: { ...bearer, ...tus, 'upload-length': '10', 'upload-metadata': `filename ${btoa('ok.exe')}` },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.headers.location as string;
  };
  const tus = { 'tus-resumable': '1.0.0' };
  /** An announcement made with the token from an address no test locks out; answers its id. */
  const newBulletin = async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/bulletins',
      remoteAddress: '192.0.2.250',
      headers: bearer,
      payload: { title: 't', content: 'c' },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json<{ id: number }>().id;
  };
  /** An Android release staged at 10 % from the one before it (docs/releases.md#staged-roll-out). */
  const stagedRollout = async () => {
    for (const [version, share] of [
      ['1.0.0', 100],
      ['1.1.0', 10],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/admin/releases',
        remoteAddress: '192.0.2.250',
        headers: bearer,
        payload: { os: 'android', url: `https://x.example/${version}.apk`, version, rollout_percentage: share },
      });
      assert.equal(res.statusCode, 201, res.body);
    }
  };
  /** A request each admin route would accept with the token. With `prepare` false nothing is
   * written first (an announcement in the trash, one with revisions): ids stand in. */
  const validRequest = async (method: Method, path: string, prepare: boolean) => {
    if (!prepare && (path.includes('/trash/') || path.includes(':revision'))) {
      const url = path.replace(':id', '1').replace(':revision', '1');
      return { method, url, type: 'application/json', payload: JSON.stringify({ version: 1 }), headers: {} };
    }
    if (path === '/v1/admin/bulletins/trash/:id') {
      const id = await newBulletin();
      await t.app.inject({
        method: 'DELETE',
        url: `/v1/admin/bulletins/${id}`,
        remoteAddress: '192.0.2.250',
        headers: bearer,
      });
      return { method, url: `/v1/admin/bulletins/trash/${id}`, type: undefined, payload: undefined, headers: {} };
    }
    if (path.includes(':revision')) {
      const id = await newBulletin();
      const url = `/v1/admin/bulletins/${id}/revisions`;
      const list = await t.app.inject({ url, remoteAddress: '192.0.2.250', headers: bearer });
      const revision = list.json<{ list: { id: number }[] }>().list[0]?.id;
      const payload = method === 'POST' ? JSON.stringify({ version: 1 }) : undefined;
      const full = path.replace(':id', String(id)).replace(':revision', String(revision));
      return { method, url: full, type: 'application/json', payload, headers: {} };
    }
    if (path.startsWith('/v1/admin/rollouts/') && prepare) await stagedRollout();
    if (path === '/v1/admin/stats/updates') {
      return { method, url: `${path}?os=android`, type: undefined, payload: undefined, headers: {} };
    }
    const url = path.replace(':id', '1').replace(':key', unusedKey).replace(':os', 'android');
    if (path.endsWith('/files')) return { method, url: `${url}?name=ok.png`, type: 'image/png', payload: png };
    if (path === '/v1/admin/uploads') {
      const headers = { ...tus, 'upload-length': '10', 'upload-metadata': `filename ${btoa('ok.exe')}` };
      return { method, url, type: undefined, payload: undefined, headers };
    }
    if (path === '/v1/admin/uploads/:id') {
      const headers = { ...tus, 'upload-offset': '0' };
      const payload = Buffer.from('MZ01234567');
      return { method, url: await newUpload(), type: 'application/offset+octet-stream', payload, headers };
    }
    const bodies: Record<string, unknown> = {
      'POST /v1/admin/bulletins': { title: 't', content: 'c' },
      'PUT /v1/admin/bulletins/:id': { title: 't' },
      'PUT /v1/admin/packages': [{ OS: 'ios', DownloadURL: 'https://x.example/a.ipa' }],
      'PUT /v1/admin/appconfig': { use_cdn: 0, common_cdn_bucket_url: '' },
      'PUT /v1/admin/region': { api_addrs: [{ addr: 'https://a.example.com' }], allocator_addrs: [] },
      'PUT /v1/admin/listing': emptySiteListing,
      'POST /v1/admin/releases': { os: 'ios', url: 'https://x.example/a.ipa' },
      'PUT /v1/admin/min-versions/:os': { min_version: '5.0.0' },
      'PUT /v1/admin/rollouts/:os': { percentage: 50 },
      // Nothing listens on port 1: the check answers at once that nothing answered.
      'POST /v1/admin/settings/cdn-check': { url: 'http://127.0.0.1:1/b', timeout_ms: 100 },
    };
    const payload = bodies[`${method} ${path}`];
    return {
      method,
      url,
      type: 'application/json',
      payload: payload === undefined ? undefined : JSON.stringify(payload),
      headers: {},
    };
  };
  let clients = 0;
  const freshIp = () => `198.51.100.${++clients}`;
  const attempt = async (
    ip: string,
    authorization: string | undefined,
    route: [Method, string] = ['PUT', '/v1/admin/region'],
    prepare = false,
  ) => {
    const request = await validRequest(...route, prepare);
    return t.app.inject({
      method: request.method,
      url: request.url,
      remoteAddress: ip,
      headers: {
        ...request.headers,
        ...(request.payload !== undefined && request.type !== undefined && { 'content-type': request.type }),
        ...(authorization !== undefined && { authorization }),
      },
      ...(request.payload !== undefined && { payload: request.payload }),
    });
  };

  test('no admin action works without the token: every route is a 401 and changes nothing', async () => {
    const routes = adminRoutes(t.app.printRoutes({ commonPrefix: false }));
    for (const known of [
      'POST /v1/admin/bulletins',
      'PUT /v1/admin/bulletins/:id',
      'DELETE /v1/admin/bulletins/:id',
      'PUT /v1/admin/packages',
      'PUT /v1/admin/appconfig',
      'PUT /v1/admin/region',
      'POST /v1/admin/files',
    ]) {
      assert.ok(
        routes.some(([method, path]) => `${method} ${path}` === known),
        `${known} not found in the routes`,
      );
    }
    const before = await snapshot();
    const wrong = [undefined, ...wrongAuthorizations];
    for (const route of routes) {
      for (const authorization of wrong) {
        const res = await attempt(freshIp(), authorization, route);
        assert.equal(res.statusCode, 401, `${route.join(' ')} with ${authorization}: ${res.body}`);
        assert.deepEqual(res.json(), { status: 401, msg: 'unauthorized', code: 'signed_out' });
        assert.equal(res.headers['www-authenticate'], 'Bearer');
      }
    }
    assert.equal(await snapshot(), before);
    // And each one does work with the token, so the 401s above were about the token alone.
    for (const route of routes) {
      const res = await attempt(freshIp(), `Bearer ${adminToken}`, route, true);
      assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${route.join(' ')}: ${res.statusCode} ${res.body}`);
    }
  });

  test('after 10 wrong tokens even the right token is a 429 with Retry-After; other clients go on', async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) {
      assert.equal((await attempt(ip, `Bearer guess-${i}-${'x'.repeat(20)}`)).statusCode, 401, `attempt ${i + 1}`);
    }
    const before = await snapshot();
    for (const authorization of [`Bearer ${adminToken}`, 'Bearer guess', undefined]) {
      for (const route of adminRoutes(t.app.printRoutes({ commonPrefix: false }))) {
        const res = await attempt(ip, authorization, route);
        assertJsonError(res, 429);
        assert.deepEqual(res.json(), { status: 429, msg: tooManyFailures, code: 'rate_limited' });
        const retryAfter = Number(res.headers['retry-after']);
        assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= windowMs / 1000, `${retryAfter}`);
      }
    }
    assert.equal(await snapshot(), before);
    // Another client, and the public API, are not affected.
    assert.equal((await attempt(freshIp(), `Bearer ${adminToken}`)).statusCode, 200);
    assert.equal((await t.app.inject({ url: '/v1/ping', remoteAddress: ip })).statusCode, 200);
  });

  test('after the window has passed the client may try again', async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) await attempt(ip, 'Bearer wrong-wrong-wrong-wrong');
    assert.equal((await attempt(ip, `Bearer ${adminToken}`)).statusCode, 429);
    ahead += windowMs;
    assert.equal((await attempt(ip, `Bearer ${adminToken}`)).statusCode, 200);
    // A fresh window: ten more failures are allowed, then the lock-out again.
    for (let i = 0; i < 10; i++) assert.equal((await attempt(ip, 'Bearer wrong-wrong-wrong-wrong')).statusCode, 401);
    assert.equal((await attempt(ip, `Bearer ${adminToken}`)).statusCode, 429);
  });

  test('successes and requests with no bearer token at all do not count', async () => {
    const ip = freshIp();
    for (let i = 0; i < 30; i++) {
      assert.equal((await attempt(ip, `Bearer ${adminToken}`)).statusCode, 200);
      assert.equal((await attempt(ip, i % 2 === 0 ? undefined : 'Basic eDp5')).statusCode, 401);
    }
    for (let i = 0; i < 9; i++) assert.equal((await attempt(ip, 'Bearer wrong-wrong-wrong-wrong')).statusCode, 401);
    assert.equal((await attempt(ip, `Bearer ${adminToken}`)).statusCode, 200);
  });

  test('X-Forwarded-For does not let a client escape the lock-out unless TRUST_PROXY says so', async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/v1/admin/region',
        remoteAddress: ip,
        headers: { authorization: 'Bearer wrong-wrong-wrong-wrong', 'x-forwarded-for': `203.0.113.${i}` },
        payload: {},
      });
      assert.equal(res.statusCode, 401);
    }
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v1/admin/region',
      remoteAddress: ip,
      headers: { ...bearer, 'x-forwarded-for': '203.0.113.200' },
      payload: { api_addrs: [{ addr: 'https://a.example.com' }], allocator_addrs: [] },
    });
    assert.equal(res.statusCode, 429);
  });

  test('behind a trusted proxy each forwarded client is counted on its own', async () => {
    const proxied = await startTestApp({ env: { TRUST_PROXY: '1', ADMIN_MAX_FAILURES: '3' } });
    try {
      const put = (client: string, headers: Record<string, string>) =>
        proxied.app.inject({
          method: 'PUT',
          url: '/v1/admin/region',
          remoteAddress: '10.0.0.1',
          headers: { ...headers, 'x-forwarded-for': client },
          payload: { api_addrs: [{ addr: 'https://a.example.com' }], allocator_addrs: [] },
        });
      for (let i = 0; i < 3; i++)
        assert.equal((await put('203.0.113.7', { authorization: 'Bearer nope' })).statusCode, 401);
      assert.equal((await put('203.0.113.7', bearer)).statusCode, 429);
      assert.equal((await put('203.0.113.8', bearer)).statusCode, 200);
    } finally {
      await proxied.close();
    }
  });
});

describe('telling an SVG by its start', () => {
  const svg = (prologue: string) => Buffer.from(`${prologue}<svg xmlns="http://www.w3.org/2000/svg"/>`);

  test('600 empty comments before <svg> are read in one pass, not backtracked', () => {
    // 600 take 4,200 bytes: past the first 4 KiB, where the root must start, so not an SVG.
    assert.equal(looksLikeImage('image/svg+xml', svg('<!---->'.repeat(600))), false);
    assert.equal(looksLikeImage('image/svg+xml', svg('<!---->'.repeat(500))), true);
    assert.equal(looksLikeImage('image/svg+xml', Buffer.from(`${'<!---->'.repeat(600)}<html>`)), false);
    assert.equal(looksLikeImage('image/svg+xml', Buffer.from('<!--'.repeat(1000))), false);
  });

  test('the declaration, comments and doctype are allowed in that order, and nothing else', () => {
    const allowed = ['', '\uFEFF  ', '<?xml version="1.0"?>\n', '<!-- a -->\n<!--b-->', '<!DOCTYPE svg PUBLIC "x">'];
    for (const prologue of allowed) assert.equal(looksLikeImage('image/svg+xml', svg(prologue)), true, prologue);
    const refused = ['<html>', '<!DOCTYPE html>', '<!-- open', '<?xml', 'text ', '<!DOCTYPE svg><!-- late -->'];
    for (const prologue of refused) assert.equal(looksLikeImage('image/svg+xml', svg(prologue)), false, prologue);
    assert.equal(looksLikeImage('image/svg+xml', Buffer.from('<svgx>')), false);
  });
});

describe('whom failures count against', () => {
  test('an IPv6 client is its /64; IPv4 and IPv4-mapped addresses are themselves', () => {
    assert.equal(clientKey('203.0.113.9'), '203.0.113.9');
    assert.equal(clientKey('::ffff:203.0.113.9'), '203.0.113.9');
    assert.equal(clientKey('2001:db8:1:2::a'), '2001:db8:1:2::/64');
    assert.equal(clientKey('2001:0db8:0001:0002:ffff:1:2:3'), '2001:db8:1:2::/64');
    assert.equal(clientKey('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(clientKey('::1'), '0:0:0:0::/64');
  });

  test('fresh addresses from one IPv6 /64 share one count', async () => {
    const v6 = await startTestApp({ env: { ADMIN_MAX_FAILURES: '3' } });
    try {
      const put = (remoteAddress: string, authorization: string) =>
        v6.app.inject({
          method: 'PUT',
          url: '/v1/admin/region',
          remoteAddress,
          headers: { authorization },
          payload: { api_addrs: [{ addr: 'https://a.example.com' }], allocator_addrs: [] },
        });
      for (let i = 1; i <= 3; i++) assert.equal((await put(`2001:db8:7:7::${i}`, 'Bearer nope')).statusCode, 401);
      assert.equal((await put('2001:db8:7:7::99', `Bearer ${adminToken}`)).statusCode, 429);
      assert.equal((await put('2001:db8:7:8::1', `Bearer ${adminToken}`)).statusCode, 200, 'another /64');
    } finally {
      await v6.close();
    }
  });

  test('behind one proxy a client cannot pick its address by writing X-Forwarded-For itself', async () => {
    const proxied = await startTestApp({ env: { TRUST_PROXY: '1', ADMIN_MAX_FAILURES: '3' } });
    try {
      const put = (written: string, authorization: string) =>
        proxied.app.inject({
          method: 'PUT',
          url: '/v1/admin/region',
          remoteAddress: '10.0.0.1',
          // The client wrote the first address; the proxy appended the one it saw.
          headers: { authorization, 'x-forwarded-for': `${written}, 203.0.113.50` },
          payload: { api_addrs: [{ addr: 'https://a.example.com' }], allocator_addrs: [] },
        });
      for (let i = 0; i < 3; i++) assert.equal((await put(`192.0.2.${i}`, 'Bearer nope')).statusCode, 401);
      assert.equal((await put('192.0.2.200', `Bearer ${adminToken}`)).statusCode, 429);
    } finally {
      await proxied.close();
    }
  });
});

describe('the failure limiter and the token check', () => {
  test('counts per client in a window that starts at the first failure', () => {
    let now = 0;
    const limiter = new FailureLimiter({ maxFailures: 3, windowMs: 1000, now: () => now });
    for (let i = 0; i < 3; i++) {
      assert.equal(limiter.retryAfterMs('a'), 0);
      limiter.recordFailure('a');
      now += 100;
    }
    assert.equal(limiter.retryAfterMs('a'), 700);
    assert.equal(limiter.retryAfterMs('b'), 0);
    now = 999;
    assert.equal(limiter.retryAfterMs('a'), 1);
    now = 1000;
    assert.equal(limiter.retryAfterMs('a'), 0);
    assert.equal(limiter.size, 0, 'an expired client is forgotten');
  });

  test('memory stays bounded: expired clients are dropped, and the oldest when full', () => {
    let now = 0;
    const limiter = new FailureLimiter({ maxFailures: 2, windowMs: 1000, maxClients: 100, now: () => now });
    for (let i = 0; i < 1000; i++) {
      limiter.recordFailure(`10.0.${Math.floor(i / 256)}.${i % 256}`);
      assert.ok(limiter.size <= 100);
    }
    assert.equal(limiter.size, 100);
    limiter.recordFailure('last');
    limiter.recordFailure('last');
    assert.ok(limiter.retryAfterMs('last') > 0);
    now = 2000;
    limiter.recordFailure('after');
    assert.equal(limiter.size, 1, 'every expired client was dropped at once');
  });

  test('the bearer check accepts exactly "Bearer <token>"', () => {
    const check = bearerTokenChecker(adminToken);
    assert.equal(check(`Bearer ${adminToken}`), 'valid');
    for (const header of [`Bearer ${adminToken} `, `Bearer ${adminToken}\0`, 'Bearer ', `Bearer  ${adminToken}`]) {
      assert.equal(check(header), 'wrong', JSON.stringify(header));
    }
    for (const header of [undefined, '', adminToken, `Basic ${adminToken}`, ['Bearer x'], 42]) {
      assert.equal(check(header), 'absent', JSON.stringify(header));
    }
    // Hashing first makes every comparison the same length, whatever the guess.
    assert.equal(check(`Bearer ${'x'.repeat(100_000)}`), 'wrong');
  });

  test('text that cannot be stored exactly is found wherever it is in a body', () => {
    assert.equal(isUnstorableText('ok 你好 🎉'), false);
    for (const bad of ['a\u0000b', '\uD800', 'x\uDC00', '\uDBFF\uDBFF\uDC00'])
      assert.equal(isUnstorableText(bad), true);
    assert.equal(unstorableTextPath({ title: 'ok', list: [{ addr: 'a' }] }), undefined);
    assert.equal(unstorableTextPath({ title: 'ok', list: [{ addr: 'a\u0000' }] }), 'body/list/0/addr');
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    assert.equal(unstorableTextPath(deep)?.startsWith('body/0/0/0'), true);
    assert.equal(unstorableTextPath(Buffer.from([0, 0, 0])), undefined, 'file bytes are not text');
  });
});
