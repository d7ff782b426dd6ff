/**
 * Resumable uploads with the tus protocol under /v1/admin/uploads
 * (docs/releases.md#resumable-uploads), against the app listening on 127.0.0.1 so that a
 * request can really be cut half way. On SQLite, and on PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { addUser } from '../src/accounts/repository.js';
import { hashPassword } from '../src/accounts/passwords.js';
import { removeExpiredUploads } from '../src/files/uploads.js';
import { bearer, startTestApp, type TestApp } from './helpers.js';

const mib = 1024 * 1024;
let t: TestApp;
let base: string;
before(async () => {
  t = await startTestApp({ env: { PACKAGE_MAX_BYTES: String(8 * mib) } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  await addUser(t.db.kysely, { name: 'ann', role: 'admin', passwordHash: await hashPassword('ann-password-123') });
  await addUser(t.db.kysely, { name: 'ed', role: 'editor', passwordHash: await hashPassword('ed-password-123') });
});
after(() => t.close());

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request; `cutAfter` bytes of the body are sent and then the connection is destroyed. */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
  cutAfter?: number,
): Promise<Answer | 'cut'> {
  return new Promise((done, fail) => {
    const req = httpRequest(`${base}${path}`, { method, headers: { 'tus-resumable': '1.0.0', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', (error) => (cutAfter === undefined ? fail(error) : done('cut')));
    if (body === undefined) return void req.end();
    if (cutAfter === undefined) return void req.end(body);
    // Once the bytes are handed to the system the cut cannot overtake them: the connection's close
    // reaches the server after them (the client has read nothing, so it closes, not resets).
    req.write(body.subarray(0, cutAfter), () => req.destroy());
    req.on('close', () => done('cut'));
  });
}

async function call(method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
  const answer = await send(method, path, headers, body);
  assert.ok(answer !== 'cut');
  return answer;
}

const metadata = (name: string) => `filename ${Buffer.from(name).toString('base64')}`;

async function create(name: string, length: number, headers: Record<string, string> = bearer): Promise<Answer> {
  return call('POST', '/v1/admin/uploads', {
    ...headers,
    'upload-length': String(length),
    'upload-metadata': metadata(name),
  });
}

const patch = (location: string, offset: number, chunk: Buffer, headers: Record<string, string> = bearer) =>
  call(
    'PATCH',
    location,
    {
      ...headers,
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    },
    chunk,
  );

/** A Windows installer as far as the upload checks go: MZ, then random bytes. */
const installer = (size: number) => Buffer.concat([Buffer.from('MZ'), randomBytes(size - 2)]);

async function sessionOf(name: string, password: string): Promise<Record<string, string>> {
  // Over the same address as the uploads, so that its origin is the console's.
  const res = await call(
    'POST',
    '/v1/admin/session',
    { origin: base, 'content-type': 'application/json' },
    Buffer.from(JSON.stringify({ name, password })),
  );
  assert.equal(res.status, 200, res.body);
  const cookie = /chat_site_session=([^;]+)/.exec(String(res.headers['set-cookie']))?.[1] ?? '';
  return { cookie: `chat_site_session=${cookie}`, origin: base };
}

describe('a resumable upload', () => {
  test('in several PATCH chunks, one cut half way and resumed from HEAD, ends as a hosted file with its SHA-256', async () => {
    const file = installer(3 * mib + 12_345);
    const created = await create('xingliao-setup-5.1.0.exe', file.length);
    assert.equal(created.status, 201, created.body);
    const location = created.headers.location ?? '';
    assert.match(location, /^\/v1\/admin\/uploads\/[\w-]+$/);
    assert.equal(created.headers['access-control-allow-origin'], undefined, 'no CORS grant');

    const first = await patch(location, 0, file.subarray(0, mib));
    assert.equal(first.status, 204, first.body);
    assert.equal(first.headers['upload-offset'], String(mib));

    // The second chunk is cut after half of it was sent.
    const cut = await send(
      'PATCH',
      location,
      { ...bearer, 'upload-offset': String(mib), 'content-type': 'application/offset+octet-stream' },
      file.subarray(mib, 2 * mib),
      mib / 2,
    );
    assert.equal(cut, 'cut');
    let offset = -1;
    for (let attempt = 0; attempt < 100; attempt++) {
      const head = await call('HEAD', location, bearer);
      assert.equal(head.status, 200);
      offset = Number(head.headers['upload-offset']);
      if (offset > mib) break;
      // The server stores what arrived at its own pace; nothing tells the client when it is done.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(offset > mib && offset <= mib + mib / 2, `the bytes that arrived are kept: offset ${offset}`);

    let last: Answer | undefined;
    for (let at = offset; at < file.length; at += mib) {
      last = await patch(location, at, file.subarray(at, Math.min(at + mib, file.length)));
      assert.ok(last.status === 204 || last.status === 200, last.body);
    }
    assert.equal(last?.status, 200, 'the last chunk is answered with the hosted file');
    const stored = JSON.parse(last?.body ?? '') as { key: string; path: string; size: number; sha256: string };
    assert.equal(stored.sha256, createHash('sha256').update(file).digest('hex'));
    assert.equal(stored.size, file.length);
    assert.equal(last?.headers['upload-file-key'], stored.key);
    const served = await t.app.inject({ url: `/v1/${stored.path}` });
    assert.ok(served.rawPayload.equals(file));
    assert.deepEqual(readdirSync(t.config.uploadDir), [], 'the staged copy is gone');

    const release = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/releases',
      headers: bearer,
      payload: { os: 'windows', file_key: stored.key, version: '5.1.0' },
    });
    assert.equal(release.statusCode, 201, release.body);
  });

  test("an admin signed in to the console uploads from the console's origin; the upload is theirs", async () => {
    const ann = await sessionOf('ann', 'ann-password-123');
    const file = installer(70_000);
    const created = await create('small.exe', file.length, ann);
    assert.equal(created.status, 201, created.body);
    const done = await patch(created.headers.location ?? '', 0, file, ann);
    assert.equal(done.status, 200, done.body);
    const key = (JSON.parse(done.body) as { key: string }).key;
    const row = await t.db.kysely
      .selectFrom('stored_files')
      .select('uploaded_by')
      .where('key', '=', key)
      .executeTakeFirst();
    assert.equal(row?.uploaded_by, 'ann');
  });

  test('a change with the session cookie from another origin is refused, and an editor is refused', async () => {
    const ann = await sessionOf('ann', 'ann-password-123');
    const created = await create('a.exe', 1000, ann);
    assert.equal(created.status, 201);
    const foreign = { ...ann, origin: 'https://evil.example.com' };
    const refused = await create('b.exe', 1000, foreign);
    assert.equal(refused.status, 403);
    assert.deepEqual(JSON.parse(refused.body), {
      status: 403,
      msg: 'a change must come from the console itself',
      code: 'forbidden',
    });
    const patched = await patch(created.headers.location ?? '', 0, installer(1000), foreign);
    assert.equal(patched.status, 403);
    const ed = await sessionOf('ed', 'ed-password-123');
    const editor = await create('c.exe', 1000, ed);
    assert.equal(editor.status, 403);
    assert.deepEqual(JSON.parse(editor.body), { status: 403, msg: 'this needs an admin account', code: 'forbidden' });
    assert.equal((await call('HEAD', created.headers.location ?? '', ed)).status, 403);
    assert.equal((await create('d.exe', 1000, {})).status, 401);
  });

  test('refused: a name that is no install package, a length over PACKAGE_MAX_BYTES, bytes that are not the type', async () => {
    const named = await create('picture.png', 1000);
    assert.equal(named.status, 400);
    assert.match(JSON.parse(named.body).msg, /filename must name an install package/);
    assert.equal((await create('big.exe', 8 * mib + 1)).status, 413);
    const liar = await create('liar.exe', 5000);
    assert.equal(liar.status, 201);
    const before = await t.db.kysely.selectFrom('stored_files').select('key').execute();
    const done = await patch(liar.headers.location ?? '', 0, randomBytes(5000));
    assert.equal(done.status, 400);
    assert.deepEqual(JSON.parse(done.body), {
      status: 400,
      msg: 'the body is not a Windows program (MZ)',
      code: 'bad_request',
    });
    assert.deepEqual(await t.db.kysely.selectFrom('stored_files').select('key').execute(), before);
    assert.equal(existsSync(join(t.config.uploadDir, (liar.headers.location ?? '').split('/').pop() ?? '')), false);
  });

  test('an upload left unfinished is removed once it has expired', async () => {
    const created = await create('stale.exe', 5000);
    const location = created.headers.location ?? '';
    assert.equal((await patch(location, 0, installer(5000).subarray(0, 1000))).status, 204);
    const id = location.split('/').pop() ?? '';
    assert.equal(await removeExpiredUploads(t.config.uploadDir, t.config.uploadExpiryMs), 0, 'not yet');
    // Started two days ago, as far as its record says.
    const info = join(t.config.uploadDir, `${id}.json`);
    const record = JSON.parse(readFileSync(info, 'utf8')) as { creation_date: string };
    record.creation_date = new Date(Date.now() - 2 * 86_400_000).toISOString();
    writeFileSync(info, JSON.stringify(record));
    assert.equal(await removeExpiredUploads(t.config.uploadDir, t.config.uploadExpiryMs), 1);
    assert.equal(existsSync(join(t.config.uploadDir, id)), false);
    assert.equal((await call('HEAD', location, bearer)).status, 404);
  });

  test('only the ids the server makes name an upload: anything else is a 404 that touches nothing', async () => {
    const created = await create('kept.exe', 5000);
    const location = created.headers.location ?? '';
    const id = location.split('/').pop() ?? '';
    assert.match(id, /^[0-9a-f]{32}$/);
    assert.equal((await patch(location, 0, installer(5000).subarray(0, 1000))).status, 204);
    const files = () =>
      readdirSync(t.config.uploadDir)
        .filter((name) => name.startsWith(id))
        .sort();
    const before = files();
    assert.deepEqual(before, [id, `${id}.json`]);
    for (const other of [`${id}.json`, id.toUpperCase(), `${id}0`, id.slice(1), '..%2f..%2fsite.db', 'x']) {
      for (const method of ['DELETE', 'HEAD', 'PATCH']) {
        const answer = await call(method, `/v1/admin/uploads/${other}`, {
          ...bearer,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        });
        assert.equal(answer.status, 404, `${method} ${other}`);
        if (method !== 'HEAD')
          assert.deepEqual(JSON.parse(answer.body), { status: 404, msg: 'upload not found', code: 'not_found' });
      }
    }
    assert.deepEqual(files(), before, 'nothing was removed');
    const head = await call('HEAD', location, bearer);
    assert.equal(head.headers['upload-offset'], '1000', 'the upload carries on');
    assert.equal((await call('DELETE', location, bearer)).status, 204);
    assert.deepEqual(files(), []);
  });

  test('a data file whose metadata is gone is removed once it is older than the expiry', async () => {
    const ids: string[] = [];
    for (const name of ['orphan-old.exe', 'orphan-new.exe']) {
      const created = await create(name, 5000);
      const location = created.headers.location ?? '';
      assert.equal((await patch(location, 0, installer(5000).subarray(0, 1000))).status, 204);
      const id = location.split('/').pop() ?? '';
      unlinkSync(join(t.config.uploadDir, `${id}.json`));
      ids.push(id);
    }
    const [old = '', recent = ''] = ids;
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    utimesSync(join(t.config.uploadDir, old), twoDaysAgo, twoDaysAgo);
    assert.equal(await removeExpiredUploads(t.config.uploadDir, t.config.uploadExpiryMs), 1);
    assert.equal(existsSync(join(t.config.uploadDir, old)), false, 'the old orphan is gone');
    assert.equal(existsSync(join(t.config.uploadDir, recent)), true, 'a recent one may still be written to');
  });
});
