/**
 * PostgreSQL's change notices (docs/architecture.md#how-a-request-flows-through-the-server): a
 * statement on a content table that changes rows sends one notice naming the table, and one that
 * changes none sends nothing, so that no server drops its cached answers for it. A connection of
 * the test's own LISTENs; notices come in the order their statements committed, so "nothing
 * before the next write's notice" is how the test sees that a statement sent none.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type pg from 'pg';
import { loadConfig } from '../src/config.js';
import { changeChannel } from '../src/db/changes.js';
import { connect, loadPg, type Db } from '../src/db/connect.js';
import { migrate } from '../src/db/migrations.js';
import { createTestDatabase, dialect, testEnv, type TestDatabase } from './helpers.js';

describe('PostgreSQL: change notices', { skip: dialect !== 'postgres' }, () => {
  let database: TestDatabase;
  let db: Db;
  let listener: pg.Client;
  const notices: string[] = [];
  let arrived: (() => void) | undefined;

  before(async () => {
    database = await createTestDatabase();
    db = connect(loadConfig(testEnv(database)).database);
    await migrate(db);
    listener = new (loadPg().Client)({ connectionString: database.url });
    listener.on('notification', (message) => {
      notices.push(message.payload ?? '');
      arrived?.();
    });
    await listener.connect();
    await listener.query(`LISTEN ${changeChannel}`);
  });
  after(async () => {
    await listener.end();
    await db.close();
    await database.drop();
  });

  /** Runs `statement`, then answers the notices that came since the last call, once there are
   * at least `expected` of them. */
  async function noticesOf(statement: string, expected: number): Promise<string[]> {
    await sql.raw(statement).execute(db.kysely);
    while (notices.length < expected) await new Promise<void>((resolve) => (arrived = resolve));
    return notices.splice(0);
  }

  const now = "'2026-11-28T00:00:00.000Z'";
  const settingsInsert = `insert into settings (key, value, updated_at) values ('k', '"v"', ${now})`;
  const writes: Record<string, { insert: string; update: string; key: string }> = {
    bulletins: {
      insert: `insert into bulletins (title, content, created_at, updated_at) values ('t', 'c', ${now}, ${now})`,
      update: `update bulletins set pinned = 1`,
      key: 'id',
    },
    install_packages: {
      insert: `insert into install_packages (os, download_url, updated_at) values ('android', '/a.apk', ${now})`,
      update: `update install_packages set version = '1.0.1'`,
      key: 'os',
    },
    settings: {
      insert: settingsInsert,
      update: `update settings set value = '"w"'`,
      key: 'key',
    },
    stored_files: {
      insert: `insert into stored_files (key, name, content_type, size, sha256, created_at)
        values ('f', 'a.apk', 'application/octet-stream', 1, 'x', ${now})`,
      update: `update stored_files set name = 'b.apk'`,
      key: 'key',
    },
    // Read by the update offer and the changelog: release notes fixed in psql reach every server.
    releases: {
      insert: `insert into releases (os, download_url, notes, created_by, created_at)
        values ('android', '/a.apk', 'n', 'psql', ${now})`,
      update: `update releases set notes = 'fixed'`,
      key: 'id',
    },
  };

  // A notice that never comes fails its test after 20 s rather than being waited for for ever.
  const waitAtMost = { timeout: 20_000 };

  test('a statement that changes rows sends one notice naming its table', waitAtMost, async () => {
    for (const [table, write] of Object.entries(writes)) {
      assert.deepEqual(await noticesOf(write.insert, 1), [table], `insert into ${table}`);
      assert.deepEqual(await noticesOf(write.update, 1), [table], `update ${table}`);
      assert.deepEqual(await noticesOf(`delete from ${table}`, 1), [table], `delete from ${table}`);
      assert.deepEqual(await noticesOf(write.insert, 1), [table]);
      assert.deepEqual(await noticesOf(`truncate ${table} cascade`, 1), [table], `truncate ${table}`);
    }
    // An upsert that finds its row is an update, and is still one change.
    await noticesOf(settingsInsert, 1);
    const upsert = `${settingsInsert} on conflict (key) do update set value = excluded.value`;
    assert.deepEqual(await noticesOf(upsert, 1), ['settings']);
  });

  test('a statement that changes nothing sends nothing', waitAtMost, async () => {
    assert.deepEqual(notices, [], 'every notice of the test before was taken');
    for (const [table, write] of Object.entries(writes)) {
      const none = `where ${write.key} is null`;
      await sql.raw(`${write.update} ${none}`).execute(db.kysely);
      await sql.raw(`delete from ${table} ${none}`).execute(db.kysely);
      await sql.raw(`insert into ${table} select * from ${table} ${none}`).execute(db.kysely);
    }
    // Notices come in the order of their commits: the next write's is the first.
    assert.deepEqual(await noticesOf(`update settings set value = '"x"'`, 1), ['settings']);
  });
});
