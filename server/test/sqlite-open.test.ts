/**
 * Opening a SQLite file while another connection holds its write lock (db/connect.ts): the switch
 * of a new file to WAL, which SQLite refuses at once rather than waiting out the busy timeout, is
 * tried again until the lock is let go. Several servers starting on one new file meet this. The
 * lock is held by a worker thread, which lets it go on its own clock while this thread waits.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { connect } from '../src/db/connect.js';

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
