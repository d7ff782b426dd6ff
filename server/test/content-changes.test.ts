/**
 * The content's generation on SQLite (db/changes.ts): the answers that wait for it share one
 * reading of PRAGMA data_version per turn, and an answer asked for while they run (the socket's
 * reader handing the rest of a read to Node's parser) is written in the same turn, on the same
 * reading, before the next network read (docs/architecture.md#replays-on-the-socket).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { watchContentChanges } from '../src/db/changes.js';
import { connect, type Db } from '../src/db/connect.js';

const log = { info() {}, warn() {} };
let dir: string;
let db: Db;
let readings = 0;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'content-changes-'));
  db = connect({ kind: 'sqlite', path: join(dir, 'site.db') });
});
after(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The real database, its data_version readings counted. */
function counted(): Db {
  const dataVersion = db.sqliteDataVersion;
  assert.ok(dataVersion !== undefined);
  return {
    ...db,
    sqliteDataVersion: () => {
      readings += 1;
      return dataVersion();
    },
  };
}

test('answers asked for in one turn share one reading', async () => {
  const changes = watchContentChanges(counted(), log);
  readings = 0;
  const seen = await Promise.all(
    [1, 2, 3].map(() => new Promise<number>((done) => changes.afterReads(() => done(changes.generation())))),
  );
  assert.equal(readings, 1);
  assert.equal(new Set(seen).size, 1);
});

test('an answer asked for while the waiting ones run goes out in that turn, on that reading', async () => {
  const changes = watchContentChanges(counted(), log);
  readings = 0;
  const order: string[] = [];
  await new Promise<void>((done) => {
    changes.afterReads(() => {
      order.push('waiting');
      // Whatever the event loop does next comes after.
      setImmediate(() => {
        order.push('next turn');
        done();
      });
      changes.afterReads(() => order.push('asked while it ran'));
    });
  });
  assert.deepEqual(order, ['waiting', 'asked while it ran', 'next turn']);
  assert.equal(readings, 1);
});
