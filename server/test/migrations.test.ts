/** Schema migrations on a real database (SQLite, or PostgreSQL when TEST_POSTGRES_URL is set). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { connect, type Db } from '../src/db/connect.js';
import { knownMigrations, migrate } from '../src/db/migrations.js';
import { createTestDatabase, testEnv } from './helpers.js';

async function tableNames(db: Db): Promise<string[]> {
  const tables = await db.kysely.introspection.getTables({ withInternalKyselyTables: true });
  return tables.map((table) => table.name).sort();
}

async function doneMigrations(db: Db): Promise<string[]> {
  if (!(await tableNames(db)).includes('kysely_migration')) return [];
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db.kysely);
  return rows.map((row) => row.name);
}

test('a migration that fails names itself and leaves the database as it found it; the next start completes', async () => {
  const database = await createTestDatabase();
  const db = connect(loadConfig(testEnv(database)).database);
  try {
    // A table left behind by hand where migration 0002 wants to create its own: 0001 runs
    // first and succeeds, then 0002 fails.
    await db.kysely.schema.createTable('download_counts').addColumn('stray', 'text').execute();
    await assert.rejects(migrate(db), /^Error: Database migration 0002_download_counts failed: .*download_counts/);
    const after = await tableNames(db);
    assert.equal(after.includes('bulletins'), false, `0001's tables are gone again: ${after.join(' ')}`);
    assert.deepEqual(await doneMigrations(db), [], 'no migration is recorded as done');

    await db.kysely.schema.dropTable('download_counts').execute();
    await migrate(db);
    assert.deepEqual(await doneMigrations(db), [
      '0001_initial',
      '0002_download_counts',
      '0003_change_notices',
      '0004_files_outside_database',
      '0005_accounts',
      '0006_bulletin_drafts',
      '0007_releases',
      '0008_sign_in_attempts',
      '0009_update_checks',
      '0010_bulletin_revisions',
      '0011_bulletin_end_times',
      '0012_change_notices_for_rows',
      '0013_change_notices_for_releases',
      '0014_in_app_counts',
      '0015_download_visitors',
      '0016_rollouts',
      '0017_update_check_counts',
      '0018_bulletin_languages',
      '0019_release_payloads',
      '0020_release_note_languages',
    ]);
    assert.ok((await tableNames(db)).includes('bulletins'));
    await migrate(db);
    assert.equal((await doneMigrations(db)).length, knownMigrations.length, 'a second run finds nothing to do');
  } finally {
    await db.close();
    await database.drop();
  }
});

test('a database a newer build has migrated is refused with a clear message, and left as it is', async () => {
  const database = await createTestDatabase();
  const db = connect(loadConfig(testEnv(database)).database);
  try {
    await migrate(db);
    await sql`insert into kysely_migration (name, timestamp) values ('9999_from_a_newer_build', '2030-01-01T00:00:00.000Z')`.execute(
      db.kysely,
    );
    await assert.rejects(
      migrate(db),
      /^Error: The database has had migration 9999_from_a_newer_build, which this build does not know: a newer build/,
    );
    assert.deepEqual((await doneMigrations(db)).slice(-2), [knownMigrations.at(-1), '9999_from_a_newer_build']);
  } finally {
    await db.close();
    await database.drop();
  }
});

test('announcements written before 0018 get their traditional version, and 0018 runs again over itself', async () => {
  const database = await createTestDatabase();
  const db = connect(loadConfig(testEnv(database)).database);
  try {
    await migrate(db, undefined, '0015_download_visitors');
    const at = '2024-05-01T02:00:00.000Z';
    await sql`insert into bulletins (title, content, pinned, created_at, updated_at)
      values ('软件更新', '<p><a href="https://example.com/信息">信息</a></p>', 0, ${at}, ${at})`.execute(db.kysely);
    // Up to 0018 only: Kysely runs a migration again only while it is the last one done.
    await migrate(db, undefined, '0018_bulletin_languages');
    const read = () =>
      sql<{ title_tw: string; content_tw: string; tw_by_hand: number; title_en: string }>`
      select title_tw, content_tw, tw_by_hand, title_en from bulletins`.execute(db.kysely);
    const expected = [
      {
        title_tw: '軟體更新',
        content_tw: '<p><a href="https://example.com/信息">資訊</a></p>',
        tw_by_hand: 0,
        title_en: '',
      },
    ];
    assert.deepEqual(
      (await read()).rows.map((row) => ({ ...row, tw_by_hand: Number(row.tw_by_hand) })),
      expected,
    );
    await sql`delete from kysely_migration where name = '0018_bulletin_languages'`.execute(db.kysely);
    await migrate(db, undefined, '0018_bulletin_languages');
    assert.deepEqual(
      (await read()).rows.map((row) => ({ ...row, tw_by_hand: Number(row.tw_by_hand) })),
      expected,
    );
  } finally {
    await db.close();
    await database.drop();
  }
});

test('release notes written before 0019 get their traditional version, and 0019 runs again over itself', async () => {
  const database = await createTestDatabase();
  const db = connect(loadConfig(testEnv(database)).database);
  try {
    await migrate(db, undefined, '0018_bulletin_languages');
    const at = '2024-05-01T02:00:00.000Z';
    for (const notes of ['修复了打印机的问题', null]) {
      await sql`insert into releases (os, download_url, notes, created_by, created_at)
        values ('android', 'https://dl.example.com/a.apk', ${notes}, 'cli', ${at})`.execute(db.kysely);
    }
    await migrate(db);
    const read = async () =>
      (
        await sql<{ notes_tw: string | null; notes_tw_by_hand: number; notes_en: string | null }>`
        select notes_tw, notes_tw_by_hand, notes_en from releases order by id`.execute(db.kysely)
      ).rows.map((row) => ({ ...row, notes_tw_by_hand: Number(row.notes_tw_by_hand) }));
    const expected = [
      { notes_tw: '修復了印表機的問題', notes_tw_by_hand: 0, notes_en: null },
      { notes_tw: null, notes_tw_by_hand: 0, notes_en: null },
    ];
    assert.deepEqual(await read(), expected);
    await sql`delete from kysely_migration where name = '0020_release_note_languages'`.execute(db.kysely);
    await migrate(db);
    assert.deepEqual(await read(), expected);
  } finally {
    await db.close();
    await database.drop();
  }
});
