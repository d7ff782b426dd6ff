/**
 * FILES_ACCEL_REDIRECT (docs/storage.md#nginx-sends-the-files): the checks of a hosted file's
 * answer that hold whichever store the server uses, run by files-accel.test.ts on a directory
 * store and files-accel-s3.test.ts on S3. The answer carries the file's headers and
 * X-Accel-Redirect, no bytes; 304 and every refusal stay the server's, and the answer is still
 * counted. Where the stores differ, each says so as data: the redirect's target, and what becomes
 * of a range (left to the proxy, narrowed to one range to fetch, or refused here).
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { OutgoingHttpHeader } from 'node:http';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { bearer, hostFile, startTestApp, type TestApp } from './helpers.js';
import { hostedFileAnswers } from './metrics-sample.js';

type Method = 'GET' | 'HEAD';
type Headers = Record<string, string>;

/**
 * A range request and what the server makes of it: a redirect asking the proxy for this one range
 * in X-Accel-S3-Range, a redirect without that header (undefined), or its own 416.
 */
export type RangeCase = [request: Headers, outcome: string | undefined | 416];

export interface AccelStore {
  /** The name the checks run under. */
  name: string;
  /** Sets the store up: the server's settings for it, with FILES_ACCEL_REDIRECT. */
  open(): Promise<OpenStore>;
  /** Asserts the X-Accel-Redirect a `method` of the file `key` answered. */
  checkRedirect(redirect: OutgoingHttpHeader | undefined, key: string, method: Method): void;
  /** The range requests to try on a file of `size` bytes with this ETag. */
  ranges(file: { size: number; etag: string }): RangeCase[];
}

export interface OpenStore {
  env: Record<string, string>;
  /** Removes the stored file behind `key` without the server knowing. */
  lose(key: string): Promise<void>;
  close(): void;
}

const data = Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(50_000)]);
const etag = `"${createHash('sha256').update(data).digest('hex')}"`;
const metricsToken = 'files-accel-metrics-token-0123456789abcdef';

export function describeAccelRedirect(store: AccelStore): void {
  describe(store.name, () => {
    let t: TestApp;
    let opened: OpenStore;
    let key: string;
    const logLines: string[] = [];
    before(async () => {
      opened = await store.open();
      const logStream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          logLines.push(chunk.toString());
          done();
        },
      });
      t = await startTestApp({ env: { ...opened.env, METRICS_TOKEN: metricsToken, LOG_LEVEL: 'error' }, logStream });
      key = await hostFile(t.app, '星聊-6.0.0.apk', data);
    });
    after(async () => {
      await t.close();
      opened.close();
    });

    const get = (headers: Headers = {}, method: Method = 'GET', fileKey = key) =>
      t.app.inject({ method, url: `/v1/file/preview/${fileKey}`, headers });

    test('GET and HEAD: the file’s headers and X-Accel-Redirect to its object, and no bytes', async () => {
      // Nothing is compressed here either: the proxy sends the file as stored.
      const asked: Headers[] = [{}, { 'accept-encoding': 'gzip, br' }];
      for (const method of ['GET', 'HEAD'] as const) {
        for (const headers of asked) {
          const res = await get(headers, method);
          assert.equal(res.statusCode, 200, method);
          store.checkRedirect(res.headers['x-accel-redirect'], key, method);
          assert.equal(res.rawPayload.byteLength, 0, method);
          assert.equal(res.headers['x-accel-s3-range'], undefined, method);
          assert.equal(res.headers.etag, etag);
          assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
          assert.equal(res.headers['content-type'], 'application/vnd.android.package-archive');
          assert.match(String(res.headers['last-modified']), /GMT$/);
          assert.equal(
            res.headers['content-disposition'],
            `attachment; filename="6.0.0.apk"; filename*=UTF-8''%E6%98%9F%E8%81%8A-6.0.0.apk`,
          );
          assert.match(String(res.headers['content-security-policy']), /(^|;)\s*sandbox\s*(;|$)/);
          // The proxy's answer has its own, for the bytes it sends.
          assert.equal(res.headers['accept-ranges'], undefined);
          assert.equal(res.headers['content-range'], undefined);
          assert.equal(res.headers['content-encoding'], undefined);
        }
      }
    });

    test('ranges and If-Range: each left to the proxy, narrowed to one range, or refused here', async () => {
      for (const [headers, outcome] of store.ranges({ size: data.byteLength, etag })) {
        const res = await get(headers);
        const label = JSON.stringify(headers);
        if (outcome === 416) {
          assert.equal(res.statusCode, 416, label);
          assert.equal(res.headers['content-range'], `bytes */${data.byteLength}`, label);
          assert.equal(res.headers['x-accel-redirect'], undefined, label);
          continue;
        }
        assert.equal(res.statusCode, 200, label);
        store.checkRedirect(res.headers['x-accel-redirect'], key, 'GET');
        assert.equal(res.headers['x-accel-s3-range'], outcome, label);
        assert.equal(res.headers['content-range'], undefined, label);
      }
    });

    test('If-None-Match and If-Modified-Since are still answered 304 here, with no redirect', async () => {
      const conditions: Headers[] = [
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
      await opened.lose(lost);
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
}
