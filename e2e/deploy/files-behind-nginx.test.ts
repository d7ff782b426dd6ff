/**
 * Hosted files sent by the recommended nginx (deploy/nginx.conf, through scripts/deploy-check.sh
 * nginx) from the server's directory store, the server running with
 * FILES_ACCEL_REDIRECT=/internal-files/ (docs/storage.md#nginx-sends-the-files): the right
 * bytes, the server's headers, ranges, If-Range, HEAD, 304, a `curl -C -` resume, and the internal
 * location refused to visitors. Needs `npm run build` first.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { spawnServer, type ServerProcess } from '../../scripts/support/spawn-server.js';
import { createDatabase, type TestDatabase } from '../../scripts/support/test-database.js';
import { call, ensureNginx, fakeApk, nginxErrors, repoRoot, sha256, startNginx, type Running } from './support.js';
import { checkIfRange, checkInternalRefused, checkRanges, checkResume, uploadPackage } from './file-checks.js';

const adminToken = 'files-behind-nginx-admin-token-0123456789';
const data = fakeApk(3 * 1024 * 1024 + 123);
// Answered by nginx or Node for the connection, not by the route.
const transport = new Set(['date', 'connection', 'keep-alive', 'content-length', 'server', 'transfer-encoding']);

let dir: string;
let database: TestDatabase;
let server: ServerProcess;
let nginx: Running & { dir: string };
let path: string;

before(async () => {
  assert.ok(ensureNginx(), 'Debian nginx is installed (scripts/ensure-nginx.sh)');
  dir = mkdtempSync(join(tmpdir(), 'chat-site-files-nginx-'));
  database = await createDatabase({ dialect: 'sqlite', prefix: 'files-nginx' });
  const filesDir = join(dir, 'files');
  server = await spawnServer({
    DATABASE_URL: database.url,
    STORAGE_URL: `file:${filesDir}`,
    SITE_CONFIG: join(repoRoot, 'site.config.json'),
    ADMIN_TOKEN: adminToken,
    FILES_ACCEL_REDIRECT: '/internal-files/',
    TRUST_PROXY: '1',
    WORKERS: '1',
  });
  path = await uploadPackage(server.url, adminToken, data);
  nginx = await startNginx([new URL(server.url).host], { filesDir });
});

after(async () => {
  await nginx?.stop();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
  await database?.drop();
});

const viaNginx = (headers: Record<string, string> = {}, method = 'GET') =>
  call(`${nginx.url}${path}`, { method, headers });

describe('hosted files behind deploy/nginx.conf with FILES_ACCEL_REDIRECT', () => {
  test('a full GET: the file’s bytes, with every header the server gave for it', async () => {
    const own = await call(`${server.url}${path}`);
    assert.equal(own.headers['x-accel-redirect'], `/internal-files/${path.split('/').at(-1)}`);
    assert.equal(own.body.byteLength, 0, 'the server sends no bytes itself');

    const answer = await viaNginx();
    assert.equal(answer.status, 200, nginxErrors(nginx));
    assert.equal(sha256(answer.body), sha256(data));
    assert.equal(answer.headers['content-length'], String(data.byteLength));
    assert.equal(answer.headers['accept-ranges'], 'bytes');
    assert.equal(answer.headers['x-accel-redirect'], undefined);
    for (const [name, value] of Object.entries(own.headers)) {
      if (transport.has(name) || name === 'x-accel-redirect') continue;
      assert.equal(answer.headers[name], value, name);
    }
    assert.equal(answer.headers.etag, `"${sha256(data)}"`);
  });

  test('single ranges are 206 with the right bytes; past the end is 416', async () => {
    const size = data.byteLength;
    await checkRanges(viaNginx, data, [
      ['bytes=0-0', 0, 0],
      ['bytes=1000-1999', 1000, 1999],
      ['bytes=3000000-', 3_000_000, size - 1],
      ['bytes=-500', size - 500, size - 1],
    ]);
  });

  test('If-Range: the range for the server’s ETag or Last-Modified, else the whole file', async () => {
    await checkIfRange(viaNginx, data);
  });

  test('HEAD has the length and headers, no body; If-None-Match is a 304', async () => {
    const head = await viaNginx({}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-length'], String(data.byteLength));
    assert.equal(head.headers.etag, `"${sha256(data)}"`);
    assert.equal(head.body.byteLength, 0);
    const cached = await viaNginx({ 'if-none-match': `"${sha256(data)}"` });
    assert.equal(cached.status, 304);
    assert.equal(cached.body.byteLength, 0);
  });

  test('curl -C - resumes a half-downloaded file and ends with the same SHA-256', async () => {
    await checkResume(`${nginx.url}${path}`, dir, data);
  });

  test('the internal location is a 404 to visitors, however it is spelled; unknown keys too', async () => {
    const key = path.split('/').at(-1) ?? '';
    const spellings = [`/internal-files/${key}`, `/%69nternal-files/${key}`, `//internal-files/${key}`];
    await checkInternalRefused(nginx.url, spellings, data);
  });
});
