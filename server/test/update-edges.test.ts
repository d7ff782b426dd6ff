/**
 * The update checks' edges (docs/releases.md#update-checks): a platform this server publishes
 * nothing for gets each client's "no update", as the family's server answers it, and a version
 * of any length is answered like any other unreadable one, with the current release, on both
 * routes that carry a version. With the site's files served, as a real deployment does: their
 * catch-all is what turned an over-long version into a 404.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { processMetrics } from '../src/lib/metrics-registry.js';
import { isOlder, parseVersion } from '../src/updates/version.js';
import { bearer, hostFile, startTestApp, type TestApp } from './helpers.js';
import { getAlone } from './worker-logs.js';

let t: TestApp;
let webRoot: string;
before(async () => {
  webRoot = mkdtempSync(join(tmpdir(), 'chat-site-web-'));
  writeFileSync(join(webRoot, 'robots.txt'), 'User-agent: *\n');
  t = await startTestApp({ env: { WEB_ROOT: webRoot } });
  const exe = Buffer.concat([Buffer.from('MZ', 'latin1'), Buffer.alloc(4000, 3)]);
  const key = await hostFile(t.app, 'xingliao-setup-5.10.0.exe', exe);
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/releases',
    headers: bearer,
    payload: { os: 'windows', file_key: key, version: '5.10.0' },
  });
  assert.equal(res.statusCode, 201, res.body);
});
after(async () => {
  await t.close();
  rmSync(webRoot, { recursive: true, force: true });
});

const get = (url: string) => t.app.inject({ url });
const long = (length: number) => '1.'.repeat(length).slice(0, length);

describe('a platform with no releases here', () => {
  const platforms = ['linux', 'web', 'darwin', 'Symbian', 'k'.repeat(33), 'k'.repeat(201), '%E4%B8%AD'];

  test('the chat apps’ check answers 200 {}, as the family’s server does', async () => {
    for (const os of platforms) {
      const res = await get(`/v1/common/appversion/${os}/1.0.0`);
      assert.equal(res.statusCode, 200, `${os.slice(0, 40)}: ${res.body.slice(0, 200)}`);
      assert.deepEqual(res.json(), {});
    }
  });

  test('the Tauri check answers 204, its "no update"', async () => {
    for (const os of [...platforms, 'android', 'ios']) {
      const res = await get(`/v1/common/updater/${os}/1.0.0`);
      assert.equal(res.statusCode, 204, `${os.slice(0, 40)}: ${res.body.slice(0, 200)}`);
      assert.equal(res.body, '');
    }
  });

  test('is counted as os="other", not under the name it was asked by', async () => {
    const text = () => processMetrics().registry.getSingleMetricAsString('chat_site_update_checks_total');
    await get('/v1/common/appversion/plan9/1.0.0');
    await get('/v1/common/updater/plan9/1.0.0');
    const counted = await text();
    assert.match(counted, /\{os="other",client="app"\} [1-9]/);
    assert.match(counted, /\{os="other",client="tauri"\} [1-9]/);
    assert.doesNotMatch(counted, /plan9|linux|symbian|kkk/i);
  });
});

describe('a version of any length', () => {
  const lengths = [200, 201, 1000, 8000];

  test('the chat apps’ check answers it with the current release, as any unreadable version', async () => {
    const unreadable = (await get('/v1/common/appversion/windows/unknown')).json();
    assert.equal((unreadable as { app_version?: string }).app_version, '5.10.0');
    for (const length of lengths) {
      const res = await get(`/v1/common/appversion/windows/${long(length)}`);
      assert.equal(res.statusCode, 200, `${length}: ${res.body.slice(0, 200)}`);
      assert.deepEqual(res.json(), unreadable, String(length));
    }
    const chinese = await get(`/v1/common/appversion/windows/${'%E4%BA%94'.repeat(100)}`);
    assert.deepEqual(chinese.json(), unreadable);
  });

  test('the Tauri check answers it with the current release', async () => {
    for (const length of lengths) {
      const res = await get(`/v1/common/updater/windows/${long(length)}`);
      assert.equal(res.statusCode, 200, `${length}: ${res.body.slice(0, 200)}`);
      assert.equal(res.json<{ version: string }>().version, '5.10.0');
      const darwin = await get(`/v1/common/updater/linux/${long(length)}`);
      assert.equal(darwin.statusCode, 204, String(length));
    }
  });

  test('a long version is read like a short one: build metadata past 200 characters is ignored', async () => {
    const newer = `99.0.0+${'b'.repeat(300)}`;
    assert.deepEqual((await get(`/v1/common/appversion/windows/${newer}`)).json(), {});
    assert.equal((await get(`/v1/common/updater/windows/${newer}`)).statusCode, 204);
    const older = `5.9.0+${'b'.repeat(300)}`;
    assert.equal(
      (await get(`/v1/common/appversion/windows/${older}`)).json<{ app_version?: string }>().app_version,
      '5.10.0',
    );
  });

  test('any text, percent-encoded byte by byte, is answered as its version reads: never an error', async () => {
    const current = parseVersion('5.10.0');
    assert.ok(current !== undefined);
    const texts = fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 120 }),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
      fc.constantFrom('\u0000', '\u2028\u2029', '\ud83d', '5.0.0\u0085', `5.0.0+${'\ufeff'.repeat(70)}`),
    );
    // Every byte escaped: short texts reach the routes' parameters, long ones the catch-alls.
    const encoded = (text: string) =>
      [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
    await fc.assert(
      fc.asyncProperty(texts, async (text) => {
        // What the server reads: the UTF-8 of the text, lone surrogates as U+FFFD.
        const version = Buffer.from(text).toString();
        // The injected request's URL is parsed as WHATWG says, which drops a `%2e` or `%2e%2e`
        // segment, as browsers and nginx do; over a socket the server answers them (below).
        fc.pre(version !== '.' && version !== '..');
        const app = await get(`/v1/common/appversion/windows/${encoded(text)}`);
        assert.equal(app.statusCode, 200, app.body);
        const offered = isOlder(version, current);
        assert.equal(app.json<{ app_version?: string }>().app_version, offered ? '5.10.0' : undefined);
        const tauri = await get(`/v1/common/updater/windows/${encoded(text)}`);
        assert.equal(tauri.statusCode, offered ? 200 : 204, tauri.body);
        const elsewhere = await get(`/v1/common/appversion/${encoded(text)}/${encoded(text)}`);
        assert.equal(elsewhere.statusCode, 200, elsewhere.body);
      }),
      { numRuns: 150 },
    );
  });

  test('a version that is a dot segment is answered over a socket, where no URL parser drops it', async () => {
    const origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    for (const version of ['.', '..', '%2e', '%2E%2e']) {
      const app = await getAlone(`${origin}/v1/common/appversion/windows/${version}`);
      assert.equal(app.status, 200, version);
      assert.equal(JSON.parse(app.body).app_version, '5.10.0', version);
      const tauri = await getAlone(`${origin}/v1/common/updater/windows/${version}`);
      assert.equal(tauri.status, 200, version);
    }
  });

  test('a long path that is not a check is still no such endpoint, and bad percent-encoding a 400', async () => {
    for (const url of [
      `/v1/common/appversion/windows/${long(300)}/more`,
      `/v1/common/updater/${long(300)}`,
      '/v1/common/appversion/windows/',
    ]) {
      const res = await get(url);
      assert.equal(res.statusCode, 404, url.slice(0, 60));
      assert.match(res.json<{ msg: string }>().msg, /^no such endpoint/);
    }
    assert.equal((await get(`/v1/common/appversion/windows/%zz${long(300)}`)).statusCode, 400);
    assert.equal((await get(`/v1/common/updater/windows/%zz${long(300)}`)).statusCode, 400);
  });
});
