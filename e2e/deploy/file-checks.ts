/**
 * Hosted files sent by the recommended nginx (deploy/nginx.conf, through scripts/deploy-check.sh
 * nginx), the server running with FILES_ACCEL_REDIRECT: the checks that hold whichever store the
 * file comes from, run by files-behind-nginx.test.ts on the directory and
 * files-s3-behind-nginx.test.ts on S3. The right bytes and the server's headers, ranges, If-Range,
 * HEAD, 304, a `curl -C -` resume, and the internal location refused to visitors; where the test
 * sees what reached the store (S3, through s3-front.ts), what nginx asked it for too.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { spawnServer, type ServerProcess } from '../../testing/spawn-server.js';
import { createDatabase, type TestDatabase } from '../../testing/test-database.js';
import type { Arrival } from './s3-front.js';
import { call, ensureNginx, fakeApk, nginxErrors, repoRoot, resumeWithCurl, sha256, startNginx } from './support.js';
import type { Answer, Running } from './support.js';

/** A request through nginx for the file, with these headers and method. */
export type ViaNginx = (headers?: Record<string, string>, method?: string) => Promise<Answer>;

export interface NginxStore {
  /** The name the checks run under. */
  name: string;
  /** Sets the store up in `dir`: the server's settings for it, nginx's internal location. */
  open(dir: string): Promise<OpenStore>;
  /** Asserts the X-Accel-Redirect the server answered for the file `key`. */
  checkRedirect(redirect: string, key: string): void;
  /** `bytes=…` ranges and the first and last byte each asks for, on a file of `size` bytes. */
  ranges(size: number): [range: string, start: number, end: number][];
}

export interface OpenStore {
  env: Record<string, string>;
  nginx: Parameters<typeof startNginx>[1];
  /** The presigned requests that reached the store, oldest first, where the test sees them. */
  arrivals?: Arrival[];
  /** Whether an arrival is signed for what it asks. */
  signed?: (arrival: Arrival) => Promise<boolean>;
  close(): Promise<void>;
}

const adminToken = 'files-behind-nginx-admin-token-0123456789';
const data = fakeApk(3 * 1024 * 1024 + 123);
const size = data.byteLength;
const etag = `"${sha256(data)}"`;
// Answered by nginx or Node for the connection, not by the route; Accept-Ranges (and for S3
// Content-Range) is the sender's, for the bytes it sent.
const transport = new Set(['date', 'connection', 'keep-alive', 'content-length', 'server', 'transfer-encoding']);

/** Runs the checks on `store`; `onlyHere` adds the tests that only this store has. */
export function describeFilesBehindNginx(store: NginxStore, onlyHere: (viaNginx: ViaNginx) => void = () => {}) {
  describe(store.name, () => {
    let dir: string;
    let database: TestDatabase;
    let opened: OpenStore;
    let server: ServerProcess;
    let nginx: Running & { dir: string };
    let path: string;
    before(async () => {
      assert.ok(ensureNginx(), 'Debian nginx is installed (scripts/ensure-nginx.sh)');
      dir = mkdtempSync(join(tmpdir(), 'chat-site-files-nginx-'));
      database = await createDatabase({ dialect: 'sqlite', prefix: 'files-nginx' });
      opened = await store.open(dir);
      server = await spawnServer({
        DATABASE_URL: database.url,
        ...opened.env,
        SITE_CONFIG: join(repoRoot, 'site.config.json'),
        ADMIN_TOKEN: adminToken,
        TRUST_PROXY: '1',
        WORKERS: '1',
      });
      path = await uploadPackage(server.url);
      nginx = await startNginx([new URL(server.url).host], opened.nginx);
    });
    after(async () => {
      await nginx?.stop();
      await server?.stop();
      await opened?.close();
      rmSync(dir, { recursive: true, force: true });
      await database?.drop();
    });

    const viaNginx: ViaNginx = (headers = {}, method = 'GET') => call(`${nginx.url}${path}`, { method, headers });
    const lastArrival = () => opened.arrivals?.at(-1);

    test('a full GET: the file’s bytes, with every header the server gave and none of the store’s', async () => {
      const own = await call(`${server.url}${path}`);
      store.checkRedirect(String(own.headers['x-accel-redirect']), path.split('/').at(-1) ?? '');
      assert.equal(own.body.byteLength, 0, 'the server sends no bytes itself');

      const answer = await viaNginx();
      assert.equal(answer.status, 200, nginxErrors(nginx));
      assert.equal(sha256(answer.body), sha256(data));
      assert.equal(answer.headers.etag, etag, 'the stored SHA-256');
      assert.equal(answer.headers['content-length'], String(size));
      assert.equal(answer.headers['accept-ranges'], 'bytes');
      assert.equal(answer.headers['x-accel-redirect'], undefined);
      for (const [name, value] of Object.entries(own.headers)) {
        if (transport.has(name) || name.startsWith('x-accel-')) continue;
        assert.equal(answer.headers[name], value, name);
      }
      const extra = Object.keys(answer.headers).filter((name) => !(name in own.headers) && !transport.has(name));
      assert.deepEqual(extra, ['accept-ranges']);
    });

    test('single ranges are 206 with the right bytes (asked of the store as such); past the end is 416', async () => {
      for (const [range, start, end] of store.ranges(size)) {
        const answer = await viaNginx({ range });
        assert.equal(answer.status, 206, range);
        assert.equal(answer.headers['content-range'], `bytes ${start}-${end}/${size}`, range);
        assert.deepEqual(answer.body, data.subarray(start, end + 1), range);
        assert.equal(answer.headers.etag, etag, range);
        if (opened.arrivals) assert.equal(lastArrival()?.headers.range, `bytes=${start}-${end}`, range);
      }
      const asked = opened.arrivals?.length;
      const past = await viaNginx({ range: `bytes=${size}-` });
      assert.equal(past.status, 416);
      assert.equal(past.headers['content-range'], `bytes */${size}`);
      if (opened.arrivals) assert.equal(opened.arrivals.length, asked, 'the server answers 416 without the store');
    });

    test('If-Range: the range for the server’s ETag or Last-Modified, else the whole file', async () => {
      const lastModified = String((await viaNginx({}, 'HEAD')).headers['last-modified']);
      for (const ifRange of [etag, lastModified]) {
        const same = await viaNginx({ range: 'bytes=0-9', 'if-range': ifRange });
        assert.equal(same.status, 206, ifRange);
        assert.deepEqual(same.body, data.subarray(0, 10), ifRange);
      }
      for (const ifRange of [`"${'0'.repeat(64)}"`, 'Thu, 01 Jan 2015 00:00:00 GMT']) {
        const other = await viaNginx({ range: 'bytes=0-9', 'if-range': ifRange });
        assert.equal(other.status, 200, ifRange);
        assert.equal(sha256(other.body), sha256(data), ifRange);
        assert.equal(other.headers.etag, etag, ifRange);
        if (opened.arrivals) assert.equal(lastArrival()?.headers.range, undefined, ifRange);
      }
    });

    test('HEAD has the length and headers, no body (a HEAD at the store); If-None-Match is a 304', async () => {
      const head = await viaNginx({}, 'HEAD');
      assert.equal(head.status, 200, nginxErrors(nginx));
      assert.equal(head.headers['content-length'], String(size));
      assert.equal(head.headers.etag, etag);
      assert.equal(head.body.byteLength, 0);
      const arrival = lastArrival();
      if (opened.arrivals) assert.equal(arrival?.method, 'HEAD');
      if (opened.signed) assert.ok(arrival !== undefined && (await opened.signed(arrival)), 'signed as a HEAD');
      const asked = opened.arrivals?.length;
      const cached = await viaNginx({ 'if-none-match': etag });
      assert.equal(cached.status, 304);
      assert.equal(cached.body.byteLength, 0);
      if (opened.arrivals) assert.equal(opened.arrivals.length, asked, 'the server answers 304 without the store');
    });

    test('curl -C - resumes a half-downloaded file and ends with the same SHA-256', async () => {
      const target = join(dir, 'resume.apk');
      const stdout = await resumeWithCurl(`${nginx.url}${path}`, target, data, 1_500_000);
      assert.equal(stdout, `206 ${size - 1_500_000}`);
      assert.equal(sha256(readFileSync(target)), sha256(data));
    });

    test('the internal location is a 404 to visitors, however it is spelled; unknown keys too', async () => {
      const internal = String((await call(`${server.url}${path}`)).headers['x-accel-redirect']);
      store.checkRedirect(internal, path.split('/').at(-1) ?? '');
      for (const spelling of [internal, internal.replace('/internal', '/%69nternal'), `/${internal}`]) {
        const answer = await call(`${nginx.url}${spelling}`);
        assert.equal(answer.status, 404, spelling);
        assert.notEqual(sha256(answer.body), sha256(data), spelling);
      }
      const unknown = await call(`${nginx.url}/v1/file/preview/${'0'.repeat(16)}-none.apk`);
      assert.equal(unknown.status, 404);
      assert.equal((JSON.parse(unknown.body.toString()) as { status: number }).status, 404);
    });

    onlyHere(viaNginx);
  });
}

/** Uploads the package with the admin API; answers the public path it is served at (/v1/file/…). */
async function uploadPackage(serverUrl: string): Promise<string> {
  const uploaded = await call(`${serverUrl}/v1/admin/files?name=${encodeURIComponent('星聊-7.0.0.apk')}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/octet-stream' },
    body: data,
  });
  assert.equal(uploaded.status, 201, uploaded.body.toString());
  return `/v1/${(JSON.parse(uploaded.body.toString()) as { path: string }).path}`;
}
