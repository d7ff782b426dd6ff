/**
 * Operator accounts of the console: the command line that manages them, signing in and out,
 * session expiry, the origin check on changes, roles, the wrong-password limit and the audit
 * log. On SQLite, and on PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { AuditPage } from '@chat-site/contract/admin';
import { tokenHash } from '../src/accounts/repository.js';
import { adminToken, cliPath, startTestApp, type TestApp } from './helpers.js';
import { checked } from './checked.js';

const origin = 'http://localhost';
let t: TestApp;
before(async () => {
  t = await startTestApp({
    env: { ADMIN_MAX_FAILURES: '4', ADMIN_CLIENT_MAX_FAILURES: '6', ADMIN_ACCOUNT_MAX_FAILURES: '8' },
  });
  await addUser('alice', 'admin', 'alice-password-1');
  await addUser('bob', 'editor', 'bob-password-12');
});
after(() => t.close());

/** Runs the built command line against the test database, with `input` on its standard input. */
function cli(args: string[], input = '', app = t): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { database } = app.config;
  const databaseUrl = database.kind === 'sqlite' ? `sqlite:${database.path}` : database.url;
  return new Promise((done) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, TIME_ZONE: 'Asia/Shanghai' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

async function addUser(name: string, role: string, password: string): Promise<void> {
  const result = await cli(['users', 'add', name, '--role', role, '--password-stdin'], `${password}\n`);
  assert.equal(result.code, 0, result.stderr);
}

async function signIn(name: string, password: string, remoteAddress = '127.0.0.1') {
  return t.app.inject({
    method: 'POST',
    url: '/v1/admin/session',
    remoteAddress,
    headers: { origin },
    payload: { name, password },
  });
}

/** The session cookie a successful sign-in set. */
async function sessionOf(name: string, password: string): Promise<string> {
  const res = await signIn(name, password);
  assert.equal(res.statusCode, 200, res.body);
  const cookie = res.cookies.find((c) => c.name === 'chat_site_session');
  assert.ok(cookie !== undefined);
  return cookie.value;
}

const asUser = (session: string, extra: Record<string, string> = {}) => ({
  cookie: `chat_site_session=${session}`,
  origin,
  ...extra,
});

describe('accounts on the command line', () => {
  test('users add, list, reset-password and remove; the audit log records each', async () => {
    await addUser('carol', 'editor', 'carol-password-1');
    const taken = await cli(['users', 'add', 'CAROL', '--role', 'admin', '--password-stdin'], 'another-password\n');
    assert.equal(taken.code, 2);
    assert.match(taken.stderr, /already an account named CAROL/);
    const short = await cli(['users', 'add', 'dave', '--role', 'admin', '--password-stdin'], 'short\n');
    assert.equal(short.code, 2);
    assert.match(short.stderr, /at least 10 characters/);
    const badRole = await cli(['users', 'add', 'dave', '--role', 'owner', '--password-stdin'], 'long-enough-1\n');
    assert.equal(badRole.code, 2);
    const list = JSON.parse((await cli(['users', 'list', '--json'])).stdout) as { name: string; role: string }[];
    assert.deepEqual(
      list.map(({ name, role }) => ({ name, role })),
      [
        { name: 'alice', role: 'admin' },
        { name: 'bob', role: 'editor' },
        { name: 'carol', role: 'editor' },
      ],
    );
    const session = await sessionOf('carol', 'carol-password-1');
    assert.equal((await cli(['users', 'reset-password', 'carol', '--password-stdin'], 'carol-password-2\n')).code, 0);
    const stale = await t.app.inject({ url: '/v1/admin/session', headers: asUser(session) });
    assert.equal(stale.statusCode, 401, 'a reset ends the sessions');
    assert.equal((await signIn('carol', 'carol-password-2')).statusCode, 200);
    assert.equal((await cli(['users', 'remove', 'carol'])).code, 0);
    assert.equal((await signIn('carol', 'carol-password-2')).statusCode, 401);
    const audit = JSON.parse((await cli(['audit', '--json'])).stdout) as { actor: string; action: string }[];
    assert.deepEqual(
      audit.slice(0, 3).map((entry) => entry.action),
      ['user.remove', 'user.reset-password', 'user.add'],
    );
    // The command line's source, with the system user who ran it (server/src/cli/audit.ts).
    assert.ok(
      audit.every((entry) => /^cli(:.+)?$/.test(entry.actor)),
      JSON.stringify(audit),
    );
  });
});

describe('signing in and out', () => {
  test('a wrong password is a 401; the right one sets an HttpOnly, SameSite=Strict session cookie', async () => {
    const wrong = await signIn('alice', 'not-her-password', '192.0.2.10');
    assert.equal(wrong.statusCode, 401);
    assert.deepEqual(wrong.json(), { status: 401, msg: 'wrong user name or password', code: 'wrong_credentials' });
    assert.equal((await signIn('nobody', 'whatever-password', '192.0.2.10')).statusCode, 401);
    const res = await signIn('alice', 'alice-password-1', '192.0.2.10');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { name: 'alice', role: 'admin', time_zone: 'Asia/Shanghai' });
    const cookie = res.cookies.find((c) => c.name === 'chat_site_session');
    assert.equal(cookie?.httpOnly, true);
    assert.equal(cookie?.sameSite, 'Strict');
    assert.equal(cookie?.path, '/');
    assert.equal(cookie?.secure, undefined, 'not Secure on plain HTTP');
    const me = await t.app.inject({ url: '/v1/admin/session', headers: asUser(cookie?.value ?? '') });
    assert.deepEqual(me.json(), { name: 'alice', role: 'admin', time_zone: 'Asia/Shanghai' });
  });

  test('behind TLS the cookie is Secure', async () => {
    const tls = await startTestApp({ env: { BEHIND_TLS: '1' } });
    try {
      const added = await cli(
        ['users', 'add', 'erin', '--role', 'editor', '--password-stdin'],
        'erin-password-1\n',
        tls,
      );
      assert.equal(added.code, 0, added.stderr);
      const res = await tls.app.inject({
        method: 'POST',
        url: '/v1/admin/session',
        headers: { origin },
        payload: { name: 'erin', password: 'erin-password-1' },
      });
      assert.equal(res.cookies.find((c) => c.name === 'chat_site_session')?.secure, true);
    } finally {
      await tls.close();
    }
  });

  test('signing out ends the session everywhere; a changed password ends the other sessions', async () => {
    const first = await sessionOf('bob', 'bob-password-12');
    const second = await sessionOf('bob', 'bob-password-12');
    const out = await t.app.inject({ method: 'DELETE', url: '/v1/admin/session', headers: asUser(first) });
    assert.equal(out.statusCode, 204);
    assert.equal((await t.app.inject({ url: '/v1/admin/session', headers: asUser(first) })).statusCode, 401);
    assert.equal((await t.app.inject({ url: '/v1/admin/session', headers: asUser(second) })).statusCode, 200);
    const third = await sessionOf('bob', 'bob-password-12');
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/v1/admin/session/password',
      headers: asUser(third),
      payload: { current: 'bob-password-12', next: 'bob-password-13' },
    });
    assert.equal(changed.statusCode, 204, changed.body);
    assert.equal((await t.app.inject({ url: '/v1/admin/session', headers: asUser(second) })).statusCode, 401);
    assert.equal((await t.app.inject({ url: '/v1/admin/session', headers: asUser(third) })).statusCode, 200);
    const back = await t.app.inject({
      method: 'PUT',
      url: '/v1/admin/session/password',
      headers: asUser(third),
      payload: { current: 'bob-password-13', next: 'bob-password-12' },
    });
    assert.equal(back.statusCode, 204);
  });

  test('a session ends when idle too long, and at its absolute end however active', async () => {
    const idle = await sessionOf('alice', 'alice-password-1');
    const old = new Date(Date.now() - 61 * 60_000).toISOString();
    await t.db.kysely.updateTable('sessions').set({ last_seen_at: old }).execute();
    assert.equal((await t.app.inject({ url: '/v1/admin/session', headers: asUser(idle) })).statusCode, 401);
    const active = await sessionOf('alice', 'alice-password-1');
    const past = new Date(Date.now() - 1000).toISOString();
    await t.db.kysely.updateTable('sessions').set({ expires_at: past }).execute();
    assert.equal((await t.app.inject({ url: '/v1/admin/session', headers: asUser(active) })).statusCode, 401);
    const left = await t.db.kysely
      .selectFrom('sessions')
      .select('token_hash')
      .where('token_hash', 'in', [tokenHash(idle), tokenHash(active)])
      .execute();
    assert.deepEqual(left, [], 'ended sessions are deleted');
  });
});

describe('what a session may do', () => {
  test('a change must come from the console’s own origin', async () => {
    const session = await sessionOf('alice', 'alice-password-1');
    const body = { title: '跨站', content: '<p>x</p>' };
    for (const headers of [
      { cookie: `chat_site_session=${session}` },
      asUser(session, { origin: 'https://evil.test' }),
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/admin/bulletins', headers, payload: body });
      assert.equal(res.statusCode, 403, JSON.stringify(headers));
    }
    const ok = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/bulletins',
      headers: asUser(session),
      payload: body,
    });
    assert.equal(ok.statusCode, 201);
  });

  test('an editor writes announcements but reaches no admin route; the token still opens all', async () => {
    const session = await sessionOf('bob', 'bob-password-12');
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/bulletins',
      headers: asUser(session),
      payload: { title: '编辑写的', content: '<p>x</p>' },
    });
    assert.equal(created.statusCode, 201);
    for (const [url, payload] of [
      ['/v1/admin/packages', []],
      ['/v1/admin/appconfig', { use_cdn: 0, common_cdn_bucket_url: '' }],
      ['/v1/admin/region', { api_addrs: [{ addr: 'https://a.example.com' }], allocator_addrs: [] }],
    ] as const) {
      const res = await t.app.inject({ method: 'PUT', url, headers: asUser(session), payload });
      assert.equal(res.statusCode, 403, url);
      assert.deepEqual(res.json(), { status: 403, msg: 'this needs an admin account', code: 'forbidden' });
    }
    const byToken = await t.app.inject({
      method: 'PUT',
      url: '/v1/admin/region',
      headers: { authorization: `Bearer ${adminToken}` },
      payload: { api_addrs: [{ addr: 'https://a.example.com' }], allocator_addrs: [] },
    });
    assert.equal(byToken.statusCode, 200);
    assert.equal((await t.app.inject({ url: '/v1/admin/session' })).statusCode, 401, 'nobody signed in');
  });

  test('an editor uploads pictures, not install packages; an upload is recorded under their name', async () => {
    const session = await sessionOf('bob', 'bob-password-12');
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const picture = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/files?name=banner.png',
      headers: asUser(session, { 'content-type': 'image/png' }),
      payload: png,
    });
    assert.equal(picture.statusCode, 201, picture.body);
    const { key } = picture.json<{ key: string }>();
    const row = await t.db.kysely
      .selectFrom('stored_files')
      .select('uploaded_by')
      .where('key', '=', key)
      .executeTakeFirst();
    assert.equal(row?.uploaded_by, 'bob');
    const apk = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/files?name=app.apk',
      headers: asUser(session, { 'content-type': 'application/vnd.android.package-archive' }),
      payload: Buffer.from('PK\x03\x04rest', 'latin1'),
    });
    assert.equal(apk.statusCode, 403);
    assert.deepEqual(apk.json(), {
      status: 403,
      msg: 'uploading an install package needs an admin account',
      code: 'forbidden',
    });
    const list = await t.app.inject({ url: '/v1/admin/files', headers: asUser(session) });
    assert.equal(list.statusCode, 403, 'the file list is for admins');
  });

  test('the audit log names who changed what, with the state before and after', async () => {
    const session = await sessionOf('bob', 'bob-password-12');
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/bulletins',
      headers: asUser(session),
      payload: { title: '审计前', content: '<p>a</p>' },
    });
    const { id } = created.json<{ id: number }>();
    await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/bulletins/${id}`,
      headers: asUser(session),
      payload: { title: '审计后' },
    });
    const audit = JSON.parse((await cli(['audit', '--json', '--limit', '2'])).stdout) as {
      actor: string;
      action: string;
      target: string;
      before: { title: string } | null;
      after: { title: string } | null;
    }[];
    assert.equal(audit[0]?.action, 'bulletin.update');
    assert.equal(audit[0]?.actor, 'bob');
    assert.equal(audit[0]?.target, String(id));
    assert.equal(audit[0]?.before?.title, '审计前');
    assert.equal(audit[0]?.after?.title, '审计后');
    assert.equal(audit[1]?.action, 'bulletin.create');
    assert.equal(audit[1]?.before, null);

    // The console reads the same log, newest first, paged, narrowed to one actor or target;
    // an editor may not read it.
    const admin = await sessionOf('alice', 'alice-password-1');
    const read = (query: string, session = admin) =>
      t.app.inject({ url: `/v1/admin/audit?${query}`, headers: asUser(session) });
    const page = await read('page_size=2');
    assert.equal(page.statusCode, 200, page.body);
    const body = checked(AuditPage, page);
    assert.ok(body.count >= 2);
    assert.equal(body.list.length, 2);
    assert.match(body.list[0]?.at ?? '', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const bobs = checked(AuditPage, await read(`who=bob&page_size=100`));
    assert.ok(bobs.list.length >= 2);
    assert.ok(bobs.list.every((entry) => entry.actor === 'bob' || entry.target === 'bob'));
    assert.deepEqual(
      bobs.list.slice(0, 2).map((entry) => entry.actor),
      ['bob', 'bob'],
    );
    const second = checked(AuditPage, await read('page_size=1&page_index=2'));
    assert.equal(second.list[0]?.action, body.list[1]?.action);
    assert.equal((await read('', session)).statusCode, 403);
  });
});

describe('wrong passwords', () => {
  // This file's limits (before): 4 per account and address, 6 per address, 8 per account.
  const bearerHeaders = { authorization: `Bearer ${adminToken}` };

  test('lock an address out of that account only: the owner elsewhere and the token still get in', async () => {
    await addUser('frank', 'editor', 'frank-password-1');
    const attacker = '198.51.100.1';
    for (let n = 1; n <= 4; n++) assert.equal((await signIn('frank', `guess-${n}`, attacker)).statusCode, 401);
    const locked = await signIn('frank', 'frank-password-1', attacker);
    assert.equal(locked.statusCode, 429);
    assert.ok(Number(locked.headers['retry-after']) > 0);
    assert.deepEqual(locked.json(), {
      status: 429,
      msg: 'too many wrong passwords, try again later',
      code: 'rate_limited',
    });
    assert.equal((await signIn('frank', 'frank-password-1', '198.51.100.99')).statusCode, 200, 'the owner');
    assert.equal((await signIn('alice', 'alice-password-1', attacker)).statusCode, 200, 'other accounts');
    const byToken = await t.app.inject({ url: '/v1/admin/session', remoteAddress: attacker, headers: bearerHeaders });
    assert.equal(byToken.statusCode, 200);
  });

  test('a right password clears that address’s wrong ones for the account', async () => {
    await addUser('gina', 'editor', 'gina-password-1');
    const client = '198.51.100.2';
    for (let n = 1; n <= 2; n++) assert.equal((await signIn('gina', `guess-${n}`, client)).statusCode, 401);
    assert.equal((await signIn('gina', 'gina-password-1', client)).statusCode, 200);
    for (let n = 1; n <= 4; n++) assert.equal((await signIn('gina', `again-${n}`, client)).statusCode, 401);
    assert.equal((await signIn('gina', 'gina-password-1', client)).statusCode, 429);
  });

  test('are limited per account, from all addresses together, with a higher bound', async () => {
    await addUser('hank', 'editor', 'hank-password-1');
    for (let n = 1; n <= 8; n++) assert.equal((await signIn('hank', 'guess', `198.51.100.${20 + n}`)).statusCode, 401);
    const locked = await signIn('hank', 'hank-password-1', '198.51.100.99');
    assert.equal(locked.statusCode, 429);
    assert.ok(Number(locked.headers['retry-after']) > 0);
  });

  test('are limited per address, whichever account they try, with a higher bound', async () => {
    const client = '203.0.113.77';
    for (const name of ['a1', 'a2', 'a3', 'a4', 'a5', 'a6']) {
      assert.equal((await signIn(name, 'guess', client)).statusCode, 401, name);
    }
    assert.equal((await signIn('alice', 'alice-password-1', client)).statusCode, 429);
  });

  test('changing one’s password with a wrong current one counts the same', async () => {
    await addUser('ivan', 'editor', 'ivan-password-1');
    const session = await sessionOf('ivan', 'ivan-password-1');
    const change = (current: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/v1/admin/session/password',
        headers: asUser(session),
        payload: { current, next: 'ivan-password-2' },
      });
    for (let n = 1; n <= 4; n++) assert.equal((await change(`guess-${n}`)).statusCode, 400);
    const locked = await change('ivan-password-1');
    assert.equal(locked.statusCode, 429);
    assert.ok(Number(locked.headers['retry-after']) > 0);
    assert.equal((await signIn('ivan', 'ivan-password-1')).statusCode, 429, 'the same address and account');
  });
});

describe('an idle session', () => {
  test('used more often than the idle limit never ends', async () => {
    const short = await startTestApp({ env: { ADMIN_SESSION_IDLE_MINUTES: '1' } });
    try {
      await cli(['users', 'add', 'jane', '--role', 'editor', '--password-stdin'], 'jane-password-1\n', short);
      const res = await short.app.inject({
        method: 'POST',
        url: '/v1/admin/session',
        headers: { origin },
        payload: { name: 'jane', password: 'jane-password-1' },
      });
      const session = res.cookies.find((c) => c.name === 'chat_site_session')?.value ?? '';
      const sessions = short.db.kysely.updateTable('sessions').where('token_hash', '=', tokenHash(session));
      // Every 20 s for two minutes: move the last use 20 s back, as if that long had passed.
      for (let use = 1; use <= 6; use++) {
        const row = await short.db.kysely
          .selectFrom('sessions')
          .select('last_seen_at')
          .where('token_hash', '=', tokenHash(session))
          .executeTakeFirstOrThrow();
        const earlier = new Date(Date.parse(row.last_seen_at) - 20_000).toISOString();
        await sessions.set({ last_seen_at: earlier }).execute();
        const me = await short.app.inject({ url: '/v1/admin/session', headers: asUser(session) });
        assert.equal(me.statusCode, 200, `use ${use}, ${use * 20} s in`);
      }
    } finally {
      await short.close();
    }
  });
});
