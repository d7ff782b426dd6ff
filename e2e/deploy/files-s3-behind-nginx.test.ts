/**
 * Hosted files on an S3 store sent by the recommended nginx (deploy/nginx.conf, through
 * scripts/deploy-check.sh nginx with S3_UPSTREAM), the server running with
 * FILES_ACCEL_REDIRECT=/internal-s3/ (docs/storage.md#with-s3): the server checks and counts,
 * then nginx fetches the object from the store with the short-lived presigned URL the server gave
 * it. The right bytes and the server's headers, ranges, If-Range, HEAD, 304, a `curl -C -`
 * resume, what reached the store, and the internal location refused to visitors. The store is
 * s3rver behind a recording front (s3-front.ts). Needs `npm run build` first.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { s3Env, startTestS3, testBucket } from '../../scripts/s3-server.js';
import { spawnServer, type ServerProcess } from '../../scripts/support/spawn-server.js';
import { signatureHolds, startS3Front, type S3Front } from './s3-front.js';
import { call, ensureNginx, fakeApk, nginxErrors, repoRoot, sha256, startNginx, type Running } from './support.js';
import { checkIfRange, checkInternalRefused, checkRanges, checkResume, uploadPackage } from './file-checks.js';

const adminToken = 'files-s3-behind-nginx-admin-token-0123456789';
const data = fakeApk(3 * 1024 * 1024 + 123);
const size = data.byteLength;
// s3rver's built-in account, the server's S3 credentials (scripts/s3-server.ts).
const s3rverKeys = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
// Answered by nginx or Node for the connection, not by the route; Accept-Ranges and
// Content-Range are the store's, for the bytes it sent.
const transport = new Set(['date', 'connection', 'keep-alive', 'content-length', 'server', 'transfer-encoding']);

let dir: string;
let front: S3Front;
let server: ServerProcess;
let nginx: Running & { dir: string };
let path: string;

before(async () => {
  assert.ok(ensureNginx(), 'Debian nginx is installed (scripts/ensure-nginx.sh)');
  dir = mkdtempSync(join(tmpdir(), 'chat-site-files-s3-nginx-'));
  front = await startS3Front((await startTestS3()).endpoint);
  const frontS3 = { endpoint: front.endpoint, dir };
  server = await spawnServer({
    DATABASE_URL: `sqlite:${join(dir, 'site.db')}`,
    ...s3Env(frontS3, 'files-s3-behind-nginx'),
    SITE_CONFIG: join(repoRoot, 'site.config.json'),
    ADMIN_TOKEN: adminToken,
    FILES_ACCEL_REDIRECT: '/internal-s3/',
    TRUST_PROXY: '1',
    WORKERS: '1',
  });
  path = await uploadPackage(server.url, adminToken, data);
  nginx = await startNginx([new URL(server.url).host], { s3Upstream: new URL(front.endpoint).host });
});

after(async () => {
  await nginx?.stop();
  await server?.stop();
  await front?.close();
  rmSync(dir, { recursive: true, force: true });
});

const viaNginx = (headers: Record<string, string> = {}, method = 'GET') =>
  call(`${nginx.url}${path}`, { method, headers });
const key = () => path.split('/').at(-1) ?? '';
const lastArrival = () => front.presigned.at(-1);

describe('hosted files on S3 behind deploy/nginx.conf with FILES_ACCEL_REDIRECT', () => {
  test('a full GET: the file’s bytes, with every header the server gave and none of the store’s', async () => {
    const own = await call(`${server.url}${path}`);
    const redirect = String(own.headers['x-accel-redirect']);
    assert.match(redirect, new RegExp(`^/internal-s3/${testBucket}/files-s3-behind-nginx/${key()}\\?`));
    assert.match(redirect, /[?&]X-Amz-Expires=60(&|$)/);
    assert.equal(own.body.byteLength, 0, 'the server sends no bytes itself');

    const answer = await viaNginx();
    assert.equal(answer.status, 200, nginxErrors(nginx));
    assert.equal(sha256(answer.body), sha256(data));
    assert.equal(answer.headers.etag, `"${sha256(data)}"`, 'the stored SHA-256');
    assert.equal(answer.headers['content-length'], String(size));
    assert.equal(answer.headers['accept-ranges'], 'bytes');
    for (const [name, value] of Object.entries(own.headers)) {
      if (transport.has(name) || name.startsWith('x-accel-')) continue;
      assert.equal(answer.headers[name], value, name);
    }
    const extra = Object.keys(answer.headers).filter((name) => !(name in own.headers) && !transport.has(name));
    assert.deepEqual(extra, ['accept-ranges']);
  });

  test('single ranges are 206 with the right bytes, asked of the store as such; past the end is 416', async () => {
    // s3rver reads an end of 0 as "to the end", so the first byte alone is not asked for here.
    const cases: [string, number, number][] = [
      ['bytes=0-1', 0, 1],
      ['bytes=1000-1999', 1000, 1999],
      ['bytes=3000000-', 3_000_000, size - 1],
      ['bytes=-500', size - 500, size - 1],
    ];
    let asked = 0;
    await checkRanges(viaNginx, data, cases, (range, start, end) => {
      assert.equal(lastArrival()?.headers.range, `bytes=${start}-${end}`, range);
      asked = front.presigned.length;
    });
    assert.equal(front.presigned.length, asked, 'the server answers 416 without the store');
  });

  test('If-Range: the range for the server’s ETag or Last-Modified, else the whole file', async () => {
    await checkIfRange(viaNginx, data, (ifRange, other, etag) => {
      assert.equal(other.headers.etag, etag, ifRange);
      assert.equal(lastArrival()?.headers.range, undefined, ifRange);
    });
  });

  test('HEAD has the length and headers, no body, and is a HEAD at the store; If-None-Match is a 304', async () => {
    const head = await viaNginx({}, 'HEAD');
    assert.equal(head.status, 200, nginxErrors(nginx));
    assert.equal(head.headers['content-length'], String(size));
    assert.equal(head.headers.etag, `"${sha256(data)}"`);
    assert.equal(head.body.byteLength, 0);
    const arrival = lastArrival();
    assert.equal(arrival?.method, 'HEAD');
    assert.ok(arrival !== undefined && (await signatureHolds(arrival, s3rverKeys)), 'signed as a HEAD');
    const asked = front.presigned.length;
    const cached = await viaNginx({ 'if-none-match': `"${sha256(data)}"` });
    assert.equal(cached.status, 304);
    assert.equal(cached.body.byteLength, 0);
    assert.equal(front.presigned.length, asked, 'the server answers 304 without the store');
  });

  test('curl -C - resumes a half-downloaded file and ends with the same SHA-256', async () => {
    await checkResume(`${nginx.url}${path}`, dir, data);
  });

  test('the store gets a correctly signed request for the one host, and none of the visitor’s headers', async () => {
    await viaNginx({ cookie: 'session=secret', authorization: 'Bearer visitor', 'if-none-match': '"other"' });
    const arrival = lastArrival();
    assert.ok(arrival !== undefined);
    assert.equal(arrival.headers.host, new URL(front.endpoint).host);
    for (const name of ['cookie', 'authorization', 'if-none-match', 'if-range', 'x-forwarded-for']) {
      assert.equal(arrival.headers[name], undefined, name);
    }
    assert.ok(await signatureHolds(arrival, s3rverKeys));
    const elsewhere = { ...arrival, headers: { ...arrival.headers, host: 'attacker.example:80' } };
    assert.equal(await signatureHolds(elsewhere, s3rverKeys), false, 'the signature covers the host');
  });

  test('a refusal from the store is a 502 from nginx, without the store’s error', async () => {
    front.refuseNext();
    const answer = await viaNginx();
    assert.equal(answer.status, 502);
    assert.doesNotMatch(answer.body.toString(), /S3RVER|SignatureDoesNotMatch/);
    assert.equal((await viaNginx()).status, 200);
  });

  test('the internal location is a 404 to visitors, however it is spelled; unknown keys too', async () => {
    const own = await call(`${server.url}${path}`);
    const redirect = String(own.headers['x-accel-redirect']);
    const spellings = [redirect, redirect.replace('/internal', '/%69nternal'), `/${redirect}`];
    await checkInternalRefused(nginx.url, spellings, data);
  });
});
