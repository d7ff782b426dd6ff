/**
 * Hosted files end to end, on the storage TEST_STORAGE names (a directory, or S3 on a test
 * server) and the database the helpers pick: uploads streamed and checked, downloads streamed
 * with ranges and conditional requests, a real `curl -C -` resume, cut and stalled uploads that
 * leave nothing, listing, and deleting with the references that forbid it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { HostedFile } from '@chat-site/contract/admin';
import { bearer, startTestApp, storageKind, type TestApp } from './helpers.js';
import { checked } from './checked.js';
import { s3ObjectsUnder, startTestS3, testBucket } from '../../testing/s3-server.js';
import { resumeWithCurl } from '../../testing/resume-with-curl.js';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(2000)}</svg>`);

/** A package of `size` bytes that starts with the magic of its type. */
function packageBytes(magic: Buffer | string, size: number): Buffer {
  const data = randomBytes(size);
  Buffer.from(magic).copy(data);
  return data;
}
const zipMagic = Buffer.from([0x50, 0x4b, 3, 4]);
const oleMagic = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const gzipMagic = Buffer.from([0x1f, 0x8b, 8, 0]);
function dmgBytes(size: number): Buffer {
  const data = randomBytes(size);
  Buffer.from('koly').copy(data, size - 512);
  return data;
}

let t: TestApp;
before(async () => {
  t = await startTestApp({ env: { PACKAGE_MAX_BYTES: String(64 * 1024 * 1024), UPLOAD_MAX_BYTES: '65536' } });
});
after(() => t.close());

const upload = (name: string, type: string, payload: Buffer) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/admin/files?name=${encodeURIComponent(name)}`,
    headers: { ...bearer, 'content-type': type },
    payload,
  });

async function uploaded(name: string, type: string, payload: Buffer): Promise<HostedFile> {
  const res = await upload(name, type, payload);
  assert.equal(res.statusCode, 201, res.body);
  return checked(HostedFile, res);
}

async function rowCount(): Promise<number> {
  const row = await t.db.kysely
    .selectFrom('stored_files')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every object in the storage: file names in the directory (temporary ones included), or
 * object keys under the S3 prefix. */
async function storedObjects(): Promise<string[]> {
  const storage = t.config.storage;
  if (storage.kind === 'file') {
    try {
      return readdirSync(storage.dir).sort();
    } catch {
      return [];
    }
  }
  return (await s3ObjectsUnder(await startTestS3(), storage.prefix)).sort();
}

/** The multipart uploads the test S3 server has begun and not finished, each in a folder of its
 * own. s3rver has no AbortMultipartUpload, so an aborted upload stays listed: a test looks for one
 * that was not there before it began. */
async function s3UploadsUnderWay(): Promise<string[]> {
  try {
    return readdirSync(join((await startTestS3()).dir, testBucket, '._S3rver_uploads'));
  } catch {
    return [];
  }
}

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe(`uploads (${storageKind} storage)`, () => {
  test('each package type is accepted with its content type (or octet-stream) and its first bytes', async () => {
    const cases: [string, string, Buffer][] = [
      ['app.apk', 'application/vnd.android.package-archive', packageBytes(zipMagic, 5000)],
      ['app.aab', 'application/octet-stream', packageBytes(zipMagic, 5000)],
      ['app.ipa', 'application/octet-stream', packageBytes(zipMagic, 5000)],
      ['app.zip', 'application/zip', packageBytes(zipMagic, 5000)],
      ['setup.exe', 'application/vnd.microsoft.portable-executable', packageBytes('MZ', 5000)],
      ['setup.msi', 'application/x-msi', packageBytes(oleMagic, 5000)],
      ['app.pkg', 'application/octet-stream', packageBytes('xar!', 5000)],
      ['app.dmg', 'application/x-apple-diskimage', dmgBytes(5000)],
      ['other.apk', 'application/octet-stream', packageBytes(zipMagic, 300)],
      // Update payloads (docs/releases.md#update-payloads).
      ['Xingliao.app.tar.gz', 'application/gzip', packageBytes(gzipMagic, 5000)],
      ['Xingliao_5.2.0_x64-setup.nsis.zip', 'application/zip', packageBytes(zipMagic, 5000)],
      ['Xingliao_5.2.0_x64_en-US.msi.zip', 'application/octet-stream', packageBytes(zipMagic, 5000)],
      ['Xingliao-5.2.0-mac.zip.blockmap', 'application/octet-stream', packageBytes(gzipMagic, 5000)],
    ];
    for (const [name, type, data] of cases) {
      const res = await upload(name, type, data);
      assert.equal(res.statusCode, 201, res.body);
      assert.notEqual(res.headers.connection, 'close', name);
      const body = checked(HostedFile, res);
      assert.equal(body.size, data.byteLength, name);
      assert.equal(body.sha256, sha256(data), name);
      assert.equal(body.key, `${sha256(data).slice(0, 16)}-${name}`);
      const served = await t.app.inject(`/v1/${body.path}`);
      assert.equal(served.statusCode, 200, name);
      assert.deepEqual(served.rawPayload, data, name);
    }
    const row = await t.db.kysely
      .selectFrom('stored_files')
      .selectAll()
      .where('key', 'like', '%-setup.msi')
      .executeTakeFirstOrThrow();
    assert.equal(row.uploaded_by, 'admin-token');
    assert.equal(row.content_type, 'application/x-msi');
  });

  test('a package whose first (or, for a .dmg, last) bytes are wrong is a 400 and leaves nothing', async () => {
    const rowsBefore = await rowCount();
    const objectsBefore = await storedObjects();
    const cases: [string, string, Buffer][] = [
      ['app.apk', 'application/vnd.android.package-archive', packageBytes('MZ', 200_000)],
      ['setup.exe', 'application/octet-stream', packageBytes(zipMagic, 5000)],
      ['setup.msi', 'application/x-msi', packageBytes('MZ', 5000)],
      ['app.pkg', 'application/octet-stream', packageBytes(zipMagic, 5000)],
      ['app.dmg', 'application/x-apple-diskimage', randomBytes(5000)],
      ['app.ipa', 'application/octet-stream', Buffer.from('PK')],
      // A gzip file is a payload only under a payload's name.
      ['app.apk', 'application/octet-stream', packageBytes(gzipMagic, 5000)],
      ['Xingliao.app.tar.gz', 'application/octet-stream', packageBytes(zipMagic, 5000)],
      ['Xingliao.gz', 'application/octet-stream', packageBytes(gzipMagic, 5000)],
      ['app.blockmap', 'application/octet-stream', Buffer.from('{"version":"2"}')],
      ['app.apk', 'image/png', packageBytes(zipMagic, 5000)],
      ['app.png', 'application/octet-stream', png],
      ['notes.txt', 'application/octet-stream', Buffer.from('hello')],
    ];
    for (const [name, type, data] of cases) {
      const res = await upload(name, type, data);
      assert.equal(res.statusCode, 400, `${name} as ${type}: ${res.body}`);
      assert.equal(res.json<{ status: number }>().status, 400);
      // The rest of the body is not read: the connection ends with the answer.
      assert.equal(res.headers.connection, 'close', name);
    }
    assert.equal(await rowCount(), rowsBefore);
    assert.deepEqual(await storedObjects(), objectsBefore);
  });

  test('an image over UPLOAD_MAX_BYTES and a package over PACKAGE_MAX_BYTES are 413 and leave nothing', async () => {
    const rowsBefore = await rowCount();
    const objectsBefore = await storedObjects();
    const bigImage = Buffer.concat([png, Buffer.alloc(65536)]);
    assert.equal((await upload('big.png', 'image/png', bigImage)).statusCode, 413);
    const other = await startTestApp({ env: { PACKAGE_MAX_BYTES: '100000' } });
    try {
      const res = await other.app.inject({
        method: 'POST',
        url: '/v1/admin/files?name=big.apk',
        headers: { ...bearer, 'content-type': 'application/octet-stream' },
        payload: packageBytes(zipMagic, 100_001),
      });
      assert.equal(res.statusCode, 413, res.body);
    } finally {
      await other.close();
    }
    assert.equal(await rowCount(), rowsBefore);
    assert.deepEqual(await storedObjects(), objectsBefore);
  });

  test('the same bytes under the same name twice are one file', async () => {
    const data = packageBytes(zipMagic, 1000);
    const first = await uploaded('twice.apk', 'application/octet-stream', data);
    const rows = await rowCount();
    assert.deepEqual(await uploaded('twice.apk', 'application/octet-stream', data), first);
    assert.equal(await rowCount(), rows);
  });
});

describe(`downloads (${storageKind} storage)`, () => {
  const data = packageBytes(zipMagic, 100_000);
  let file: HostedFile;
  before(async () => {
    file = await uploaded('星聊-5.0.1.apk', 'application/vnd.android.package-archive', data);
  });
  const get = (headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.inject({ method, url: `/v1/${file.path}`, headers });

  test('the whole file, with its headers: strong ETag, immutable caching, RFC 6266 name, sandbox CSP', async () => {
    const res = await get({ 'accept-encoding': 'gzip, br' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.rawPayload, data);
    assert.equal(res.headers['content-length'], String(data.byteLength));
    assert.equal(res.headers['accept-ranges'], 'bytes');
    assert.equal(res.headers.etag, `"${sha256(data)}"`);
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(res.headers['content-type'], 'application/vnd.android.package-archive');
    assert.equal(res.headers['content-encoding'], undefined);
    assert.match(String(res.headers['last-modified']), /GMT$/);
    assert.equal(
      res.headers['content-disposition'],
      `attachment; filename="5.0.1.apk"; filename*=UTF-8''%E6%98%9F%E8%81%8A-5.0.1.apk`,
    );
    assert.match(String(res.headers['content-security-policy']), /(^|;)\s*sandbox\s*(;|$)/);
  });

  test('an image is inline and is not compressed even when compressible', async () => {
    const image = await uploaded('lines.svg', 'image/svg+xml', svg);
    const res = await t.app.inject({ url: `/v1/${image.path}`, headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-encoding'], undefined);
    assert.deepEqual(res.rawPayload, svg);
    assert.match(String(res.headers['content-disposition']), /^inline; filename="lines.svg"/);
    assert.equal(res.headers.etag, `"${sha256(svg)}"`);
  });

  test('single ranges a-b, a- and -n are 206 with Content-Range', async () => {
    const size = data.byteLength;
    const cases: [string, number, number][] = [
      ['bytes=0-0', 0, 0],
      ['bytes=10-19', 10, 19],
      ['bytes=99990-', 99990, size - 1],
      ['bytes=-100', size - 100, size - 1],
      ['bytes=50000-999999', 50000, size - 1],
      ['bytes=-999999', 0, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await get({ range, 'accept-encoding': 'gzip' });
      assert.equal(res.statusCode, 206, range);
      assert.equal(res.headers['content-range'], `bytes ${start}-${end}/${size}`, range);
      assert.equal(res.headers['content-length'], String(end - start + 1), range);
      assert.equal(res.headers['content-encoding'], undefined, range);
      assert.deepEqual(res.rawPayload, data.subarray(start, end + 1), range);
    }
  });

  test('a range past the end is 416 with Content-Range: bytes */size', async () => {
    for (const range of [`bytes=${data.byteLength}-`, 'bytes=200000-300000', 'bytes=-0']) {
      const res = await get({ range });
      assert.equal(res.statusCode, 416, range);
      assert.equal(res.headers['content-range'], `bytes */${data.byteLength}`, range);
      assert.equal(res.json<{ status: number }>().status, 416);
    }
  });

  test('several ranges, another unit or a malformed range get the whole file (200)', async () => {
    for (const range of ['bytes=0-1,5-6', 'items=0-1', 'bytes=5-1', 'bytes=abc']) {
      const res = await get({ range });
      assert.equal(res.statusCode, 200, range);
      assert.equal(res.rawPayload.byteLength, data.byteLength, range);
    }
  });

  test('If-Range: the range only for the same ETag or Last-Modified, else the whole file', async () => {
    const whole = await get();
    const etag = String(whole.headers.etag);
    const lastModified = String(whole.headers['last-modified']);
    const same = await get({ range: 'bytes=0-9', 'if-range': etag });
    assert.equal(same.statusCode, 206);
    const sameDate = await get({ range: 'bytes=0-9', 'if-range': lastModified });
    assert.equal(sameDate.statusCode, 206);
    for (const ifRange of [`"${'0'.repeat(64)}"`, `W/${etag}`, 'Thu, 01 Jan 2015 00:00:00 GMT', 'nonsense']) {
      const other = await get({ range: 'bytes=0-9', 'if-range': ifRange });
      assert.equal(other.statusCode, 200, ifRange);
      assert.deepEqual(other.rawPayload, data, ifRange);
    }
  });

  test('If-None-Match and If-Modified-Since answer 304 without a body', async () => {
    const etag = `"${sha256(data)}"`;
    const conditions: Record<string, string>[] = [
      { 'if-none-match': etag },
      { 'if-none-match': `"other", W/${etag}` },
      { 'if-none-match': '*' },
      { 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() },
    ];
    for (const headers of conditions) {
      const res = await get(headers);
      assert.equal(res.statusCode, 304, JSON.stringify(headers));
      assert.equal(res.rawPayload.byteLength, 0);
      assert.equal(res.headers.etag, etag);
    }
    assert.equal((await get({ 'if-none-match': '"other"' })).statusCode, 200);
  });

  test('HEAD has the headers of GET, with the length, and no body', async () => {
    const head = await get({}, 'HEAD');
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers['content-length'], String(data.byteLength));
    assert.equal(head.headers.etag, `"${sha256(data)}"`);
    assert.equal(head.rawPayload.byteLength, 0);
    const ranged = await get({ range: 'bytes=0-99' }, 'HEAD');
    assert.equal(ranged.statusCode, 206);
    assert.equal(ranged.headers['content-length'], '100');
  });

  test('an unknown key is a 404', async () => {
    const res = await t.app.inject(`/v1/file/preview/${'0'.repeat(16)}-none.apk`);
    assert.equal(res.statusCode, 404);
  });
});

describe(`over real connections (${storageKind} storage)`, () => {
  let url: string;
  let workDir: string;
  let slow: TestApp;
  before(async () => {
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    workDir = mkdtempSync(join(tmpdir(), 'chat-site-curl-'));
    // A server that gives up on a client that stops sending after 1.5 s.
    slow = await startTestApp({ env: { REQUEST_TIMEOUT_MS: '1500', HEADERS_TIMEOUT_MS: '1000' } });
    await slow.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    rmSync(workDir, { recursive: true, force: true });
    await slow.close();
  });

  test('curl -C - resumes a half-downloaded file and ends with the same SHA-256', async () => {
    const data = packageBytes(zipMagic, 3 * 1024 * 1024 + 123);
    const file = await uploaded('resume.apk', 'application/octet-stream', data);
    const target = join(workDir, 'resume.apk');
    // What a download cut off half way left behind.
    const stdout = await resumeWithCurl(`${url}/v1/${file.path}`, target, data, 1_500_000);
    assert.equal(stdout, `206 ${data.byteLength - 1_500_000}`);
    assert.equal(sha256(readFileSync(target)), sha256(data));
  });

  /** Sends the headers and part of a body, then either cuts the connection or goes quiet until
   * the server closes it. */
  async function partialUpload(
    base: string,
    name: string,
    declared: number,
    body: Buffer,
    end: 'cut' | 'stall',
    whileSending: () => Promise<void> = async () => undefined,
  ): Promise<void> {
    const { port } = new URL(base);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    socket.write(
      `POST /v1/admin/files?name=${name} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${bearer.authorization}\r\n` +
        `Content-Type: application/octet-stream\r\nContent-Length: ${declared}\r\n\r\n`,
    );
    socket.resume(); // read the server's answer, if any, so that its close comes through
    await new Promise<void>((resolve) => socket.write(body, () => resolve()));
    if (end === 'cut') {
      // Cut even when the check fails, so that a failure does not leave the upload hanging.
      try {
        await whileSending();
      } finally {
        socket.destroy();
      }
    }
    await closed;
  }

  test('an upload cut half way leaves no file, no temporary file and no row', async () => {
    const rowsBefore = await rowCount();
    const objectsBefore = await storedObjects();
    // Larger than an S3 part (8 MiB), so a multipart upload is under way when the cut comes.
    const half = packageBytes(zipMagic, 12 * 1024 * 1024);
    const inDirectory = t.config.storage.kind === 'file';
    // Read before the first byte is sent: on a busy machine the server may begin its multipart
    // upload before the last byte has left this socket.
    const uploadsBefore = inDirectory ? new Set<string>() : new Set(await s3UploadsUnderWay());
    await partialUpload(url, 'cut.apk', 2 * half.byteLength, half, 'cut', async () => {
      // The cut comes while the file is being written: in a directory, its temporary file is there.
      if (inDirectory) {
        await waitFor(async () => (await storedObjects()).some((name) => name.startsWith('.incoming-')), 'a temp file');
      } else {
        await waitFor(
          async () => (await s3UploadsUnderWay()).some((id) => !uploadsBefore.has(id)),
          'a multipart upload',
        );
      }
    });
    await waitFor(async () => JSON.stringify(await storedObjects()) === JSON.stringify(objectsBefore), 'no leftovers');
    // And it stays so: nothing arrives late. No event tells that the store will not change any
    // more (what a cut upload leaves is cleaned up by the server after the request has ended),
    // so this one check still waits for a while.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(await storedObjects(), objectsBefore);
    assert.equal(await rowCount(), rowsBefore);
  });

  test('a client that stops sending is cut off by the server and leaves nothing', async () => {
    const storage = slow.config.storage;
    const objects = async () =>
      storage.kind === 'file'
        ? (() => {
            try {
              return readdirSync(storage.dir);
            } catch {
              return [];
            }
          })()
        : await s3ObjectsUnder(await startTestS3(), storage.prefix);
    const before = await objects();
    const { port } = slow.app.server.address() as { port: number };
    await partialUpload(`http://127.0.0.1:${port}`, 'stall.apk', 400_000, packageBytes(zipMagic, 100_000), 'stall');
    await waitFor(async () => JSON.stringify(await objects()) === JSON.stringify(before), 'no leftovers');
    const rows = await slow.db.kysely.selectFrom('stored_files').select('key').execute();
    assert.deepEqual(rows, []);
  });
});

describe(`listing and deleting (${storageKind} storage)`, () => {
  test('GET /v1/admin/files pages the files with what uses each', async () => {
    const image = await uploaded('used.png', 'image/png', png);
    const pkg = await uploaded('used.apk', 'application/octet-stream', packageBytes(zipMagic, 2000));
    const bulletin = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/bulletins',
      headers: bearer,
      payload: { title: 'with image', content: `<p>hi</p><img src="${image.path}" alt="x">` },
    });
    assert.equal(bulletin.statusCode, 201, bulletin.body);
    const bulletinId = bulletin.json<{ id: number }>().id;
    const set = await t.app.inject({
      method: 'PUT',
      url: '/v1/admin/packages',
      headers: bearer,
      payload: [{ OS: 'android', DownloadURL: pkg.path }],
    });
    assert.equal(set.statusCode, 200, set.body);

    interface Listed {
      count: number;
      list: { key: string; name: string; size: number; sha256: string; uploaded_by: string; used_by: string[] }[];
    }
    const all = (await t.app.inject({ url: '/v1/admin/files?page_size=200', headers: bearer })).json<Listed>();
    assert.equal(all.count, await rowCount());
    const byKey = new Map(all.list.map((entry) => [entry.key, entry]));
    assert.deepEqual(byKey.get(image.key)?.used_by, [`bulletin:${bulletinId}`]);
    assert.deepEqual(byKey.get(pkg.key)?.used_by, ['package:android']);
    assert.equal(byKey.get(pkg.key)?.uploaded_by, 'admin-token');
    assert.equal(byKey.get(pkg.key)?.size, 2000);

    const page1 = (await t.app.inject({ url: '/v1/admin/files?page_size=2', headers: bearer })).json<Listed>();
    const page2 = (
      await t.app.inject({ url: '/v1/admin/files?page_size=2&page_index=2', headers: bearer })
    ).json<Listed>();
    assert.equal(page1.list.length, 2);
    assert.deepEqual(
      [...page1.list, ...page2.list].map((entry) => entry.key),
      all.list.slice(0, 4).map((entry) => entry.key),
    );

    // In use: 409 with the list, and the file stays.
    for (const [file, users] of [
      [image, [`bulletin:${bulletinId}`]],
      [pkg, ['package:android']],
    ] as const) {
      const refused = await t.app.inject({ method: 'DELETE', url: `/v1/admin/files/${file.key}`, headers: bearer });
      assert.equal(refused.statusCode, 409, refused.body);
      assert.deepEqual(refused.json<{ used_by: string[] }>().used_by, users);
      assert.equal((await t.app.inject(`/v1/${file.path}`)).statusCode, 200);
    }

    // Once nothing uses them they go, bytes and all.
    await t.app.inject({ method: 'DELETE', url: `/v1/admin/bulletins/${bulletinId}`, headers: bearer });
    await t.app.inject({ method: 'PUT', url: '/v1/admin/packages', headers: bearer, payload: [] });
    for (const file of [image, pkg]) {
      const removed = await t.app.inject({ method: 'DELETE', url: `/v1/admin/files/${file.key}`, headers: bearer });
      assert.equal(removed.statusCode, 204, removed.body);
      assert.equal((await t.app.inject(`/v1/${file.path}`)).statusCode, 404);
      assert.ok(!(await storedObjects()).some((name) => name.endsWith(file.key)), `${file.key} is gone`);
    }
    const again = await t.app.inject({ method: 'DELETE', url: `/v1/admin/files/${image.key}`, headers: bearer });
    assert.equal(again.statusCode, 404);
  });
});

describe('a full disk (directory storage on a 1 MiB tmpfs)', () => {
  let full: TestApp | undefined;
  let mountPoint: string | undefined;
  /** Why the test cannot run here, if it cannot: mounting needs root (CAP_SYS_ADMIN). */
  let skipReason: string | undefined;
  before(async () => {
    if (storageKind !== 'file') {
      skipReason = 'directory storage only';
      return;
    }
    mountPoint = mkdtempSync(join(tmpdir(), 'chat-site-full-'));
    try {
      await promisify(execFile)('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint]);
    } catch (error) {
      skipReason = `cannot mount a tmpfs here: ${(error as Error).message.split('\n')[0]}`;
      return;
    }
    full = await startTestApp({ env: { STORAGE_URL: `file:${mountPoint}` } });
  });
  after(async () => {
    await full?.close();
    if (mountPoint !== undefined) {
      if (skipReason === undefined) await promisify(execFile)('umount', [mountPoint]);
      rmSync(mountPoint, { recursive: true, force: true });
    }
  });

  test('an upload that does not fit is a 507 with a clear message, and leaves nothing', async (context) => {
    if (full === undefined || mountPoint === undefined) return context.skip(skipReason);
    const res = await full.app.inject({
      method: 'POST',
      url: '/v1/admin/files?name=huge.apk',
      headers: { ...bearer, 'content-type': 'application/octet-stream' },
      payload: packageBytes(zipMagic, 2 * 1024 * 1024),
    });
    assert.equal(res.statusCode, 507, res.body);
    assert.deepEqual(res.json(), {
      status: 507,
      msg: `the file storage (file:${mountPoint}) is full; nothing was stored`,
      code: 'storage_full',
    });
    assert.deepEqual(readdirSync(mountPoint), []);
    assert.deepEqual(await full.db.kysely.selectFrom('stored_files').select('key').execute(), []);
    // The space came back: a file that fits is stored.
    const fits = await full.app.inject({
      method: 'POST',
      url: '/v1/admin/files?name=small.apk',
      headers: { ...bearer, 'content-type': 'application/octet-stream' },
      payload: packageBytes(zipMagic, 512 * 1024),
    });
    assert.equal(fits.statusCode, 201, fits.body);
  });
});
