/**
 * /healthz and /readyz (docs/monitoring.md#health-checks): alive answers without the database;
 * ready needs the database, the file storage and every migration. Runs on SQLite, and on
 * PostgreSQL with TEST_POSTGRES_URL; the storage case with the directory store.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { s3Env, startTestS3 } from '../../testing/s3-server.js';
import { loadFileSettings } from '../src/config.js';
import { knownMigrations } from '../src/db/migrations.js';
import { S3Storage } from '../src/storage/s3-store.js';
import { createTestDatabase, spawnServer, startTestApp, storageKind, testEnv, type TestApp } from './helpers.js';

const allOk = { database: 'ok', storage: 'ok', migrations: 'ok', workers: 'ok' };

describe('health checks', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => t?.close());

  test('GET /healthz answers 200 {status: "ok"}, never stored', async () => {
    const res = await t.app.inject('/healthz');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok' });
    assert.equal(res.headers['cache-control'], 'no-store');
  });

  test('GET /readyz answers 200 with every check ok, never stored', async () => {
    const res = await t.app.inject('/readyz');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok', checks: allOk });
    assert.equal(res.headers['cache-control'], 'no-store');
  });

  test('a migration the database has not had makes /readyz 503', async () => {
    const last = knownMigrations.at(-1) ?? '';
    await sql`delete from kysely_migration where name = ${last}`.execute(t.db.kysely);
    try {
      const res = await t.app.inject('/readyz');
      assert.equal(res.statusCode, 503);
      assert.deepEqual(res.json(), {
        status: 503,
        msg: 'not ready: migrations',
        checks: { ...allOk, migrations: 'pending' },
      });
      assert.equal(res.headers['cache-control'], 'no-store');
    } finally {
      const now = new Date().toISOString();
      await sql`insert into kysely_migration (name, timestamp) values (${last}, ${now})`.execute(t.db.kysely);
    }
    assert.equal((await t.app.inject('/readyz')).statusCode, 200);
  });

  test('a storage directory that cannot be used makes /readyz 503, and /healthz stays 200', async (context) => {
    if (storageKind !== 'file') return context.skip('the directory store only');
    const storage = t.config.storage as { kind: 'file'; dir: string };
    // A file where the directory should be: unusable even for root, whom permissions do not stop.
    rmSync(storage.dir, { recursive: true, force: true });
    writeFileSync(storage.dir, 'not a directory');
    try {
      const res = await t.app.inject('/readyz');
      assert.equal(res.statusCode, 503);
      assert.deepEqual(res.json(), { status: 503, msg: 'not ready: storage', checks: { ...allOk, storage: 'failed' } });
      assert.equal((await t.app.inject('/healthz')).statusCode, 200);
    } finally {
      rmSync(storage.dir, { force: true });
    }
    // The store makes its directory again, as the first upload would.
    assert.equal((await t.app.inject('/readyz')).statusCode, 200);
  });
});

describe('health checks with the database gone', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => t?.close());

  test('/readyz is 503 naming the database, and /healthz, which never asks it, stays 200', async () => {
    await t.db.close();
    const res = await t.app.inject('/readyz');
    assert.equal(res.statusCode, 503);
    const body = res.json<{ status: number; msg: string; checks: Record<string, string> }>();
    assert.equal(body.status, 503);
    assert.equal(body.msg, 'not ready: database, migrations');
    assert.equal(body.checks.database, 'failed');
    assert.equal(body.checks.storage, 'ok');
    // The migrations are read from the database too.
    assert.equal(body.checks.migrations, 'failed');
    assert.equal(res.headers['cache-control'], 'no-store');
    const alive = await t.app.inject('/healthz');
    assert.equal(alive.statusCode, 200);
    assert.deepEqual(alive.json(), { status: 'ok' });
  });
});

describe("the S3 store's readiness check", () => {
  /** An S3 store with the test server's settings, some of them changed. */
  async function store(changes: Record<string, string> = {}): Promise<S3Storage> {
    const env = { ...s3Env(await startTestS3(), 'health-check'), ...changes };
    const { storage } = loadFileSettings(env);
    assert.equal(storage.kind, 's3');
    return new S3Storage(storage as Extract<typeof storage, { kind: 's3' }>);
  }

  test('passes against the bucket, fails for a missing bucket, an unknown key or no server', async () => {
    const cases: [string, Record<string, string>, boolean][] = [
      ['the test bucket', {}, true],
      ['a missing bucket', { STORAGE_URL: 's3://no-such-bucket-here/health-check' }, false],
      ['an unknown access key', { AWS_ACCESS_KEY_ID: 'NOBODY', AWS_SECRET_ACCESS_KEY: 'NOBODY' }, false],
      ['nothing listening', { S3_ENDPOINT: 'http://127.0.0.1:9' }, false],
    ];
    for (const [name, changes, passes] of cases) {
      const storage = await store(changes);
      try {
        if (passes) await storage.check();
        else await assert.rejects(storage.check(), name);
      } finally {
        await storage.close();
      }
    }
  });
});

describe('readiness of a worker', () => {
  test('/readyz is 503 "workers" until the supervisor says every worker listens, then 200', async () => {
    const database = await createTestDatabase();
    // Stands in for this build's supervisor, holding back its word until told (SIGUSR2).
    const server = await spawnServer(testEnv(database, { HOLD_READY: '1' }), {
      script: 'server/test/fixtures/supervisor-that-does-not-migrate.mjs',
    });
    try {
      const early = await fetch(`${server.url}/readyz`);
      assert.equal(early.status, 503);
      assert.deepEqual(await early.json(), {
        status: 503,
        msg: 'not ready: workers',
        checks: { ...allOk, workers: 'pending' },
      });
      server.child.kill('SIGUSR2');
      // The word travels supervisor → worker by IPC, beside this test's requests: asked until it
      // has arrived.
      let status = 0;
      for (let tries = 0; status !== 200 && tries < 100; tries++) {
        if (tries > 0) await new Promise((wait) => setTimeout(wait, 50));
        status = (await fetch(`${server.url}/readyz`)).status;
      }
      assert.equal(status, 200);
    } finally {
      await server.stop();
      await database.drop();
    }
  });
});
