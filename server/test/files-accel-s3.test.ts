/**
 * FILES_ACCEL_REDIRECT over an S3 store (docs/storage.md#with-s3): a hosted file's answer
 * carries its headers and X-Accel-Redirect to the path and query of a presigned URL, no bytes; the
 * range, If-Range, 416 and 304 are decided here, and the one range to fetch goes to the proxy in
 * X-Accel-S3-Range. e2e/deploy/files-s3-behind-nginx runs the same through a real nginx. On the
 * test S3 server, on SQLite, or PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { s3Env, startTestS3, testBucket, type TestS3 } from '../../scripts/s3-server.js';
import { hostFile, startTestApp, type TestApp } from './helpers.js';
import { hostedFileAnswers } from './metrics-sample.js';

const metricsToken = 'files-accel-s3-metrics-token-0123456789abcdef';
const data = Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(50_000)]);
const size = data.byteLength;
const etag = `"${createHash('sha256').update(data).digest('hex')}"`;
const prefix = `accel-${randomBytes(4).toString('hex')}`;

let s3: TestS3;
let t: TestApp;
let key: string;
const logLines: string[] = [];
before(async () => {
  s3 = await startTestS3();
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  t = await startTestApp({
    env: {
      ...s3Env(s3, prefix),
      FILES_ACCEL_REDIRECT: '/internal-s3/',
      METRICS_TOKEN: metricsToken,
      LOG_LEVEL: 'error',
    },
    logStream,
  });
  key = await hostFile(t.app, '星聊-6.0.0.apk', data);
});
after(() => t.close());

const get = (headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET', fileKey = key) =>
  t.app.inject({ method, url: `/v1/file/preview/${fileKey}`, headers });

describe('FILES_ACCEL_REDIRECT over S3', () => {
  test('GET and HEAD: the file’s headers and a presigned GET or HEAD of its object, for 60 s, no bytes', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await get({}, method);
      assert.equal(res.statusCode, 200, method);
      assert.equal(res.rawPayload.byteLength, 0, method);
      const redirect = new URL(String(res.headers['x-accel-redirect']), 'http://nginx');
      assert.equal(redirect.pathname, `/internal-s3/${testBucket}/${prefix}/${key}`, method);
      assert.equal(redirect.searchParams.get('X-Amz-Expires'), '60', method);
      assert.equal(redirect.searchParams.get('X-Amz-SignedHeaders'), 'host', method);
      // The SDK marks a GetObject; a HEAD's signature covers its method (the nginx test checks it).
      assert.equal(redirect.searchParams.get('x-id'), method === 'GET' ? 'GetObject' : null, method);
      assert.equal(res.headers['x-accel-s3-range'], undefined, method);
      assert.equal(res.headers.etag, etag);
      assert.equal(res.headers['content-type'], 'application/vnd.android.package-archive');
      assert.match(String(res.headers['content-security-policy']), /(^|;)\s*sandbox\s*(;|$)/);
      // The store's answer has its own.
      assert.equal(res.headers['accept-ranges'], undefined);
      assert.equal(res.headers['content-range'], undefined);
    }
  });

  test('the one range to fetch is decided here: If-Range, suffixes and several ranges', async () => {
    const cases: [Record<string, string>, string | undefined][] = [
      [{ range: 'bytes=0-0' }, 'bytes=0-0'],
      [{ range: 'bytes=10-' }, `bytes=10-${size - 1}`],
      [{ range: 'bytes=-500' }, `bytes=${size - 500}-${size - 1}`],
      [{ range: 'bytes=100-999999999' }, `bytes=100-${size - 1}`],
      [{ range: 'bytes=10-19', 'if-range': etag }, 'bytes=10-19'],
      [{ range: 'bytes=10-19', 'if-range': '"other"' }, undefined],
      [{ range: 'bytes=0-1,5-6' }, undefined],
    ];
    for (const [headers, fetched] of cases) {
      const res = await get(headers);
      assert.equal(res.statusCode, 200, JSON.stringify(headers));
      assert.ok(res.headers['x-accel-redirect'] !== undefined, JSON.stringify(headers));
      assert.equal(res.headers['x-accel-s3-range'], fetched, JSON.stringify(headers));
    }
  });

  test('a range past the end is the server’s 416, and conditions its 304, neither redirected', async () => {
    const past = await get({ range: `bytes=${size}-` });
    assert.equal(past.statusCode, 416);
    assert.equal(past.headers['content-range'], `bytes */${size}`);
    assert.equal(past.headers['x-accel-redirect'], undefined);
    const cached = await get({ 'if-none-match': etag });
    assert.equal(cached.statusCode, 304);
    assert.equal(cached.headers['x-accel-redirect'], undefined);
  });

  test('an object missing from the bucket is the server’s logged 404', async () => {
    const lost = await hostFile(t.app, 'lost.apk', Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(100)]));
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    await client.send(new DeleteObjectCommand({ Bucket: testBucket, Key: `${prefix}/${lost}` }));
    client.destroy();
    const res = await get({}, 'GET', lost);
    assert.equal(res.statusCode, 404);
    assert.equal(res.headers['x-accel-redirect'], undefined);
    assert.ok(logLines.some((line) => line.includes('hosted file missing from the storage') && line.includes(lost)));
  });

  test('each answer is counted in the request metrics like a streamed one', async () => {
    const count = () => hostedFileAnswers(t.app, metricsToken);
    const before = await count();
    await get();
    await get({ range: 'bytes=0-0' });
    assert.equal(await count(), before + 2);
  });
});
