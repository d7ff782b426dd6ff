/**
 * Signing in under attack, over real sockets: guesses sent all at once, spread over two servers
 * on one database, get no more password checks than the limit; and password checks cannot fill
 * the process while a hosted file is being read (docs/console.md#sign-in-limits). On SQLite, and
 * on PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { after, before, describe, test } from 'node:test';
import { hashPassword } from '../src/accounts/passwords.js';
import { PasswordChecksBusy, ScryptPool, scryptPool, threadsPerWorker } from '../src/accounts/scrypt-pool.js';
import { addUser } from '../src/accounts/repository.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { connect, type Db } from '../src/db/connect.js';
import { migrate } from '../src/db/migrations.js';
import { bytesBody, storeFile } from '../src/files/repository.js';
import { storageFor } from '../src/storage/index.js';
import { createTestDatabase, testEnv, type TestDatabase } from './helpers.js';

interface Listening {
  url: string;
  db: Db;
  close(): Promise<void>;
}

/** One server of several on the same database, in this process, listening on a free port. */
async function listen(database: TestDatabase, env: Record<string, string> = {}): Promise<Listening> {
  const config = loadConfig(testEnv(database, { TRUST_PROXY: '1', ...env }));
  const db = connect(config.database);
  await migrate(db, storageFor(config.storage));
  const app = await buildApp({ config, db });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    db,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

/** Signs in through `server` as the client at `address` (TRUST_PROXY=1 takes it from X-Forwarded-For). */
async function signIn(server: Listening, name: string, password: string, address: string) {
  const res = await fetch(`${server.url}/v1/admin/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ name, password }),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as unknown };
}

let database: TestDatabase;
let first: Listening;
let second: Listening;
before(async () => {
  database = await createTestDatabase();
  first = await listen(database);
  second = await listen(database);
  const passwordHash = await hashPassword('alice-password-1');
  await addUser(first.db.kysely, { name: 'alice', role: 'admin', passwordHash });
});
after(async () => {
  await first.close();
  await second.close();
  await database.drop();
});

describe('guesses sent at once', () => {
  test('get at most ADMIN_MAX_FAILURES password checks, across both servers of one database', async () => {
    const address = '192.0.2.40';
    let checked = 0;
    // Batches of 40 at once, alternating between the servers, until every guess is refused
    // unchecked: a 401 is a password checked and found wrong, a 429 the limit, a 503 a full
    // process (not counted).
    for (let batch = 0; batch < 20; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, n) => signIn(n % 2 === 0 ? first : second, 'alice', `guess-${n}`, address)),
      );
      for (const answer of answers) assert.ok([401, 429, 503].includes(answer.status), JSON.stringify(answer));
      const wrong = answers.filter((answer) => answer.status === 401).length;
      checked += wrong;
      if (answers.every((answer) => answer.status === 429)) break;
    }
    assert.equal(checked, 10, 'passwords checked for one account from one address');
    const locked = await signIn(second, 'alice', 'alice-password-1', address);
    assert.equal(locked.status, 429);
    assert.ok(Number(locked.retryAfter) > 0);
    assert.deepEqual(locked.body, {
      status: 429,
      msg: 'too many wrong passwords, try again later',
      code: 'rate_limited',
    });
  });
});

describe('password checks in flight', () => {
  test('are bounded per process; a hosted file is served while sign-ins wait', async () => {
    const storage = storageFor(loadConfig(testEnv(database)).storage);
    const file = await storeFile(first.db.kysely, storage, {
      name: 'notes.txt',
      contentType: 'text/plain',
      body: bytesBody(Buffer.from('hello')),
      rules: { maxBytes: 1024 },
      uploadedBy: null,
    });
    const bound = 2 * availableParallelism();
    const order: string[] = [];
    // Forty clients, forty names: no attempt limit refuses any of them.
    const signIns = Array.from({ length: 40 }, (_, n) =>
      signIn(first, `user-${n}`, 'wrong-password', `198.51.100.${n + 1}`).then((answer) => {
        order.push(String(answer.status));
        return answer;
      }),
    );
    const download = fetch(`${first.url}/v1/file/preview/${file.key}`).then(async (res) => {
      assert.equal(await res.text(), 'hello');
      order.push('file');
    });
    const answers = await Promise.all(signIns);
    await download;
    const refused = answers.filter((answer) => answer.status === 503);
    assert.ok(refused.length > 0, `more than ${bound} checks at once are refused: ${order.join(' ')}`);
    for (const answer of refused) {
      assert.ok(Number(answer.retryAfter) > 0);
      assert.deepEqual(answer.body, { status: 503, msg: 'too many sign-ins at once, try again shortly', code: 'busy' });
    }
    const checkedBeforeFile = order.slice(0, order.indexOf('file')).filter((status) => status === '401').length;
    assert.ok(
      checkedBeforeFile < bound,
      `the file waited for ${checkedBeforeFile} password checks: ${order.join(' ')}`,
    );
  });

  test('an attempt refused because the pool is full writes nothing to the database', async () => {
    // Every place in the process's pool taken by derivations of a second or more (p=8: 32 MiB each).
    const slow = { N: 2 ** 15, r: 8, p: 8, maxmem: 64 * 1024 * 1024 };
    const running = Array.from({ length: scryptPool.maxInFlight }, () =>
      scryptPool.derive('x', Buffer.alloc(16), 32, slow),
    );
    const answer = await signIn(first, 'carol', 'guess-while-full', '192.0.2.77');
    assert.equal(answer.status, 503);
    const rows = await first.db.kysely
      .selectFrom('sign_in_attempts')
      .select('key')
      .where((eb) => eb.or([eb('key', 'like', '%192.0.2.77%'), eb('key', 'like', '%carol%')]))
      .execute();
    await Promise.all(running);
    assert.deepEqual(rows, [], 'no count was taken, nor given back');
  });

  test('the hashing threads are shared out over the workers: cores / workers, at least one', () => {
    assert.equal(threadsPerWorker(1, 8), 8);
    assert.equal(threadsPerWorker(2, 2), 1);
    assert.equal(threadsPerWorker(3, 8), 2);
    assert.equal(threadsPerWorker(4, 2), 1);
    const pool = new ScryptPool(4);
    pool.resize(threadsPerWorker(2, 2));
    assert.equal(pool.maxInFlight, 2, 'two derivations under way for its one thread');
  });

  test('a pool of one thread takes two derivations at once and refuses a third at once', async () => {
    const pool = new ScryptPool(1);
    const options = { N: 2 ** 15, r: 8, p: 3, maxmem: 64 * 1024 * 1024 };
    const salt = Buffer.alloc(16);
    const running = [pool.derive('a', salt, 32, options), pool.derive('b', salt, 32, options)];
    assert.equal(pool.inFlight, 2);
    await assert.rejects(pool.derive('c', salt, 32, options), PasswordChecksBusy);
    const [a, b] = await Promise.all(running);
    assert.equal(a?.length, 32);
    assert.notDeepEqual(a, b);
    assert.equal(pool.inFlight, 0);
    assert.equal((await pool.derive('a', salt, 32, options)).toString('hex'), a?.toString('hex'));
  });
});
