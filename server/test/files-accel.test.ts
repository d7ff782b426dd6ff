/**
 * FILES_ACCEL_REDIRECT (docs/storage.md#nginx-sends-the-files): a hosted file's answer carries
 * its headers and X-Accel-Redirect, no bytes; ranges and If-Range are left to the proxy, 304 and
 * every refusal stay the server's, and the answer is still counted. e2e/deploy/files-behind-nginx
 * runs the same through a real nginx. On a directory store (the setting needs one), on SQLite, or
 * PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { bearer, hostFile, startTestApp, type TestApp } from './helpers.js';
import { hostedFileAnswers } from './metrics-sample.js';

const metricsToken = 'files-accel-metrics-token-0123456789abcdef';
const data = Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(50_000)]);
const etag = `"${createHash('sha256').update(data).digest('hex')}"`;

let t: TestApp;
let dir: string;
let key: string;
const logLines: string[] = [];
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chat-site-accel-'));
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  t = await startTestApp({
    env: {
      STORAGE_URL: `file:${dir}`,
      FILES_ACCEL_REDIRECT: '/internal-files/',
      METRICS_TOKEN: metricsToken,
      LOG_LEVEL: 'error',
    },
    logStream,
  });
  key = await hostFile(t.app, '星聊-6.0.0.apk', data);
});
after(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET', fileKey = key) =>
  t.app.inject({ method, url: `/v1/file/preview/${fileKey}`, headers });

describe('FILES_ACCEL_REDIRECT', () => {
  test('the answer has the file’s headers and X-Accel-Redirect to the key, and no bytes', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await get({ 'accept-encoding': 'gzip, br' }, method);
      assert.equal(res.statusCode, 200, method);
      assert.equal(res.headers['x-accel-redirect'], `/internal-files/${key}`, method);
      assert.equal(res.rawPayload.byteLength, 0, method);
      assert.equal(res.headers.etag, etag);
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal(res.headers['content-type'], 'application/vnd.android.package-archive');
      assert.match(String(res.headers['last-modified']), /GMT$/);
      assert.equal(
        res.headers['content-disposition'],
        `attachment; filename="6.0.0.apk"; filename*=UTF-8''%E6%98%9F%E8%81%8A-6.0.0.apk`,
      );
      assert.match(String(res.headers['content-security-policy']), /(^|;)\s*sandbox\s*(;|$)/);
      // nginx adds its own, from the file it sends.
      assert.equal(res.headers['accept-ranges'], undefined);
      assert.equal(res.headers['content-encoding'], undefined);
    }
  });

  test('ranges and If-Range go on to the proxy as they came, even one past the end', async () => {
    const passedOn: Record<string, string>[] = [
      { range: 'bytes=0-9' },
      { range: 'bytes=10-', 'if-range': etag },
      { range: 'bytes=0-9', 'if-range': '"other"' },
      { range: `bytes=${data.byteLength}-` },
    ];
    for (const headers of passedOn) {
      const res = await get(headers);
      assert.equal(res.statusCode, 200, JSON.stringify(headers));
      assert.equal(res.headers['x-accel-redirect'], `/internal-files/${key}`);
      assert.equal(res.headers['content-range'], undefined);
    }
  });

  test('If-None-Match and If-Modified-Since are still answered 304 here, with no redirect', async () => {
    const conditions: Record<string, string>[] = [
      { 'if-none-match': etag },
      { 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() },
    ];
    for (const headers of conditions) {
      const res = await get(headers);
      assert.equal(res.statusCode, 304, JSON.stringify(headers));
      assert.equal(res.headers['x-accel-redirect'], undefined);
      assert.equal(res.headers.etag, etag);
    }
  });

  test('an unknown key, or a file missing from the store, is the server’s logged 404', async () => {
    const unknown = await get({}, 'GET', `${'0'.repeat(16)}-none.apk`);
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.headers['x-accel-redirect'], undefined);

    const lost = await hostFile(t.app, 'lost.apk', Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(100)]));
    unlinkSync(join(dir, lost));
    const res = await get({}, 'GET', lost);
    assert.equal(res.statusCode, 404);
    assert.equal(res.headers['x-accel-redirect'], undefined);
    assert.equal(res.json<{ status: number }>().status, 404);
    assert.ok(logLines.some((line) => line.includes('hosted file missing from the storage') && line.includes(lost)));
  });

  test('each answer is counted in the request metrics like a streamed one', async () => {
    const count = () => hostedFileAnswers(t.app, metricsToken);
    const before = await count();
    await get();
    await get({ range: 'bytes=0-0' });
    assert.equal(await count(), before + 2);
  });

  test('uploads are unchanged: the admin API still stores and lists the file', async () => {
    const res = await t.app.inject({ url: '/v1/admin/files', headers: bearer });
    assert.equal(res.statusCode, 200);
    assert.ok(res.json<{ list: { key: string }[] }>().list.some((file) => file.key === key));
  });
});
