/**
 * A SQLite file shared with other processes (db/connect.ts), whose locks are held here by a worker
 * thread on a connection of its own, which acts on its own clock while this thread waits:
 * - the switch of a new file to WAL, which SQLite refuses at once rather than waiting out the busy
 *   timeout while another connection holds the write lock, is tried again until the lock is let
 *   go (several servers starting on one new file meet this);
 * - a transaction that reads, then writes, holds the write lock from its start, so that no other
 *   process commits between its read and its write; a read-only one leaves writers free;
 * - any other write waits, up to the busy timeout, for a lock another process holds.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { sql, type Kysely } from 'kysely';
import { connect } from '../src/db/connect.js';
import type { Database } from '../src/db/schema.js';

const dir = mkdtempSync(join(tmpdir(), 'chat-site-sqlite-open-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A worker thread that takes `path`'s write lock (BEGIN IMMEDIATE) and lets it go `holdMs` later;
 * resolves once the lock is held, with a promise of the moment it is let go. */
async function holdWriteLock(path: string, holdMs: number): Promise<{ released: Promise<void> }> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const SQLite = require(workerData.driver);
     const db = new SQLite(workerData.path);
     db.exec('create table if not exists held (x)');
     db.exec('begin immediate');
     db.prepare('insert into held values (1)').run();
     parentPort.postMessage('held');
     setTimeout(() => {
       db.exec('commit');
       db.close();
       parentPort.postMessage('released');
     }, workerData.holdMs);`,
    { eval: true, workerData: { path, holdMs, driver: createRequire(import.meta.url).resolve('better-sqlite3') } },
  );
  const message = (expected: string) =>
    new Promise<void>((resolve, reject) => {
      worker.on('message', (text) => text === expected && resolve());
      worker.once('error', reject);
    });
  const held = message('held');
  const released = message('released').then(() => worker.terminate().then(() => {}));
  await held;
  return { released };
}

test('a new file whose write lock another connection holds is opened in WAL once the lock is let go', async () => {
  const path = join(dir, 'locked.db');
  const { released } = await holdWriteLock(path, 300);
  // Before the fix this threw SQLITE_BUSY ("database is locked") at once.
  const db = connect({ kind: 'sqlite', path });
  try {
    await released;
    const { rows } = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db.kysely);
    assert.equal(rows[0]?.journal_mode, 'wal');
    const held = await sql<{ x: number }>`select x from held`.execute(db.kysely);
    assert.deepEqual(held.rows, [{ x: 1 }], 'the other connection’s write is there');
  } finally {
    await db.close();
  }
});

test('a write lock held past the busy timeout fails the open with a message that names the file', async () => {
  const path = join(dir, 'held.db');
  const { released } = await holdWriteLock(path, 6000);
  try {
    assert.throws(() => connect({ kind: 'sqlite', path }), {
      message: `${path} is locked: another process held its write lock for 5 s, and SQLite cannot switch a new file to WAL meanwhile`,
    });
  } finally {
    await released;
  }
});

/** A worker thread with a connection of its own to `path` that does not wait for locks (busy
 * timeout 0): on `write()` it adds 1 to counter.n and answers 'written', or 'busy' when another
 * connection holds the write lock. */
interface OtherWriter {
  write(): Promise<string>;
  close(): Promise<number>;
}

async function otherWriter(path: string): Promise<OtherWriter> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const SQLite = require(workerData.driver);
     const db = new SQLite(workerData.path, { timeout: 0 });
     parentPort.on('message', () => {
       try {
         db.prepare('update counter set n = n + 1').run();
         parentPort.postMessage('written');
       } catch (error) {
         parentPort.postMessage(error.code === 'SQLITE_BUSY' ? 'busy' : String(error));
       }
     });`,
    { eval: true, workerData: { path, driver: createRequire(import.meta.url).resolve('better-sqlite3') } },
  );
  return {
    write: () =>
      new Promise<string>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.postMessage('write');
      }),
    close: () => worker.terminate(),
  };
}

/** counter.n, as `executor` (the connection or a transaction of it) sees it. */
const countIn = async (executor: Kysely<Database>) =>
  (await sql<{ n: number }>`select n from counter`.execute(executor)).rows[0]?.n;

async function counterFile(name: string) {
  const path = join(dir, name);
  const db = connect({ kind: 'sqlite', path });
  await sql`create table counter (n integer not null)`.execute(db.kysely);
  await sql`insert into counter values (0)`.execute(db.kysely);
  return { path, db, read: () => countIn(db.kysely) };
}

/** Runs `check` on a new counter file beside another process's writer (otherWriter); closes both. */
async function besideOtherWriter(
  name: string,
  check: (
    file: Awaited<ReturnType<typeof counterFile>>,
    other: Awaited<ReturnType<typeof otherWriter>>,
  ) => Promise<void>,
): Promise<void> {
  const file = await counterFile(name);
  const other = await otherWriter(file.path);
  try {
    await check(file, other);
  } finally {
    await other.close();
    await file.db.close();
  }
}

test('a transaction that reads, then writes, keeps other processes from writing in between', () =>
  besideOtherWriter('read-then-write.db', async ({ db, read }, other) => {
    let between = '';
    await db.kysely.transaction().execute(async (trx) => {
      const n = (await countIn(trx)) ?? 0;
      between = await other.write();
      // Had the other write gone in, this one would fail: SQLITE_BUSY, without waiting.
      await sql`update counter set n = ${n + 10}`.execute(trx);
    });
    assert.equal(between, 'busy', 'the other process waits for the transaction');
    assert.equal(await other.write(), 'written', 'and writes once it is done');
    assert.equal(await read(), 11);
  }));

test('a read-only transaction leaves other processes free to write', () =>
  besideOtherWriter('read-only.db', async ({ db, read }, other) => {
    const seen = await db.kysely
      .transaction()
      .setAccessMode('read only')
      .execute(async (trx) => {
        const before = await countIn(trx);
        assert.equal(await other.write(), 'written');
        // One snapshot for the whole transaction, as the backup needs.
        const after = await countIn(trx);
        return [before, after];
      });
    assert.deepEqual(seen, [0, 0]);
    assert.equal(await read(), 1);
  }));

test('a write waits for a write lock another process holds, and a transaction for its start', async () => {
  const { path, db, read } = await counterFile('waits.db');
  try {
    let { released } = await holdWriteLock(path, 300);
    // With no busy timeout both would fail at once with SQLITE_BUSY.
    await sql`update counter set n = n + 1`.execute(db.kysely);
    await released;
    ({ released } = await holdWriteLock(path, 300));
    await db.kysely.transaction().execute((trx) => sql`update counter set n = n + 1`.execute(trx));
    await released;
    assert.equal(await read(), 2);
  } finally {
    await db.close();
  }
});
