/**
 * The admin API's refusals carry a stable code and, for a field, the field as a plain path and
 * the numbers the console needs (docs/console.md#error-codes); the public API's stay
 * {status, msg}. On SQLite, and on PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hashPassword } from '../src/accounts/passwords.js';
import { addUser } from '../src/accounts/repository.js';
import { bearer, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
before(async () => {
  t = await startTestApp({ demo: true, env: { UPLOAD_MAX_BYTES: '2048' } });
  await addUser(t.db.kysely, { name: 'alice', role: 'admin', passwordHash: await hashPassword('alice-password-1') });
});
after(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = async (method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) => {
  const res = await t.app.inject({
    method,
    url,
    headers: { ...bearer, ...headers },
    ...(payload !== undefined && { payload: payload as object }),
  });
  return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
};

const refusal = (body: Record<string, unknown>) => {
  const { code, field, limit, size } = body;
  return Object.fromEntries(Object.entries({ code, field, limit, size }).filter(([, value]) => value !== undefined));
};

describe('field errors', () => {
  test('a bad API address names its place in the list', async () => {
    const { status, body } = await call('PUT', '/v1/admin/region', {
      api_addrs: [{ addr: 'https://a.example' }, { addr: 'ftp://b.example' }],
      allocator_addrs: [],
    });
    assert.equal(status, 400);
    assert.match(String(body.msg), /^body\/api_addrs\/1\/addr: /);
    assert.deepEqual(refusal(body), { code: 'invalid_field', field: 'api_addrs[1].addr' });
  });

  test('the same address twice, and no API address at all', async () => {
    const twice = await call('PUT', '/v1/admin/region', {
      api_addrs: [{ addr: 'https://a.example' }],
      allocator_addrs: [{ addr: 'https://c.example' }, { addr: 'https://c.example/' }],
    });
    assert.deepEqual(refusal(twice.body), { code: 'duplicate', field: 'allocator_addrs[1].addr' });
    const none = await call('PUT', '/v1/admin/region', { api_addrs: [], allocator_addrs: [] });
    assert.deepEqual(refusal(none.body), { code: 'too_short', field: 'api_addrs', limit: 1 });
  });

  test('schema validation: a wrong type, a missing field, an unknown field, a too long text', async () => {
    const wrongType = await call('PUT', '/v1/admin/region', { api_addrs: [{ addr: 5 }], allocator_addrs: [] });
    assert.equal(wrongType.status, 400);
    assert.deepEqual(refusal(wrongType.body), { code: 'invalid_field', field: 'api_addrs[0].addr' });
    const missing = await call('PUT', '/v1/admin/region', { api_addrs: [] });
    assert.deepEqual(refusal(missing.body), { code: 'missing_field', field: 'allocator_addrs' });
    const unknown = await call('PUT', '/v1/admin/appconfig', { use_cdn: 0, common_cdn_bucket_url: '', extra: 1 });
    assert.deepEqual(refusal(unknown.body), { code: 'unknown_field', field: 'extra' });
    const long = await call('PUT', '/v1/admin/region', {
      api_addrs: [{ addr: `https://a.example/${'a'.repeat(2048)}` }],
      allocator_addrs: [],
    });
    assert.deepEqual(refusal(long.body), { code: 'too_long', field: 'api_addrs[0].addr', limit: 2048 });
  });

  test("a handler's own field message: the release version", async () => {
    const { status, body } = await call('PUT', '/v1/admin/min-versions/android', { min_version: 'x.y' });
    assert.equal(status, 400, JSON.stringify(body));
    assert.deepEqual(refusal(body), { code: 'invalid_field', field: 'min_version' });
  });

  test('malformed JSON and a body over the limit', async () => {
    const malformed = await t.app.inject({
      method: 'PUT',
      url: '/v1/admin/region',
      headers: { ...bearer, 'content-type': 'application/json' },
      payload: '{"api_addrs": [',
    });
    assert.equal(malformed.json<{ code: string }>().code, 'bad_json');
    const huge = await call('PUT', '/v1/admin/region', { api_addrs: [{ addr: 'x'.repeat(1024 * 1024) }] });
    assert.equal(huge.status, 413);
    assert.equal(huge.body.code, 'too_large');
    assert.equal(huge.body.limit, 1024 * 1024);
    assert.ok(Number(huge.body.size) > 1024 * 1024);
  });
});

describe('other refusals', () => {
  test('a file over the limit gives its size and the limit in bytes', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/files?name=big.png',
      headers: { ...bearer, 'content-type': 'image/png' },
      payload: Buffer.alloc(4096),
    });
    assert.equal(res.statusCode, 413);
    assert.deepEqual(refusal(res.json()), { code: 'too_large', limit: 2048, size: 4096 });
  });

  test('a file of a type not taken', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/files?name=notes.txt',
      headers: { ...bearer, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    assert.equal(res.json<{ code: string }>().code, 'bad_file_type');
  });

  test('a wrong current password, and a new one too short', async () => {
    const origin = 'http://localhost';
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/session',
      headers: { origin },
      payload: { name: 'alice', password: 'wrong-password' },
    });
    assert.deepEqual(refusal(signIn.json()), { code: 'wrong_credentials' });
    const session = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/session',
      headers: { origin },
      payload: { name: 'alice', password: 'alice-password-1' },
    });
    const cookie = session.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const change = (current: string, next: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/v1/admin/session/password',
        headers: { origin, cookie },
        payload: { current, next },
      });
    const wrong = await change('not-the-password', 'a-new-password-1');
    assert.equal(wrong.statusCode, 400);
    assert.equal(wrong.json<{ msg: string }>().msg, 'the current password is wrong');
    assert.deepEqual(refusal(wrong.json()), { code: 'wrong_password', field: 'current' });
    const short = await change('alice-password-1', 'short');
    assert.deepEqual(refusal(short.json()), { code: 'too_short', field: 'next', limit: 10 });
    const token = await call('PUT', '/v1/admin/session/password', { current: 'a', next: 'b' });
    assert.equal(token.body.code, 'no_password');
  });

  test('not found, a stale version, no credentials, an unknown endpoint', async () => {
    const missing = await call('GET', '/v1/admin/bulletins/999999');
    assert.deepEqual(refusal(missing.body), { code: 'not_found' });
    const created = await call('POST', '/v1/admin/bulletins', { title: 'Codes', content: '<p>x</p>', topup: 0 });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = Number(created.body.id);
    const save = (version: number) =>
      call(
        'PUT',
        `/v1/admin/bulletins/${id}`,
        { title: `v${version}`, content: '<p>x</p>', topup: 0 },
        {
          'if-match': `"${version}"`,
        },
      );
    assert.equal((await save(1)).status, 200);
    const stale = await save(1);
    assert.equal(stale.status, 409);
    assert.equal(stale.body.code, 'version_conflict');
    assert.equal((stale.body.current as { version: number }).version, 2);
    // Who saved in between, so the console can tell another operator from another tab.
    assert.equal(stale.body.saved_by, 'admin-token');
    const signedOut = await t.app.inject({ url: '/v1/admin/bulletins' });
    assert.deepEqual(refusal(signedOut.json()), { code: 'signed_out' });
    const nowhere = await call('GET', '/v1/admin/no-such-thing');
    assert.deepEqual(refusal(nowhere.body), { code: 'not_found' });
  });
});

test('the public API answers {status, msg} only', async () => {
  for (const url of ['/v1/bulletin/detail?id=999999', '/v1/bulletin/detail?id=x', '/v1/no-such-thing']) {
    const res = await t.app.inject({ url });
    assert.ok(res.statusCode >= 400);
    assert.deepEqual(Object.keys(res.json()).sort(), ['msg', 'status'], url);
  }
});
