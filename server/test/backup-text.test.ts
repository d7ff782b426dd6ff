/**
 * Backup and restore carry any text unchanged (docs/backups.md#what-the-archive-holds): a property test
 * fills every table with rows whose text is anything Unicode allows and more (U+2028/U+2029,
 * NUL, lone surrogates, 4-byte characters, very long lines), backs the database up, restores it
 * into a new one and compares every value of every table. On the database the helpers pick and
 * the storage TEST_STORAGE names. Also: an archive written before U+2028/U+2029 were escaped
 * restores, and text PostgreSQL cannot hold is refused by name rather than lost. The columns of
 * every table are read from the database, so an announcement's other languages are filled too.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { dependencyOrder, readCatalog, type AnyDb, type TableInfo } from '../src/backup/catalog.js';
import { backup } from '../src/backup/export.js';
import { restore, RestoreRefusedError } from '../src/backup/import.js';
import { fileLines, rowLine } from '../src/backup/lines.js';
import { loadConfig } from '../src/config.js';
import { connect, type Db } from '../src/db/connect.js';
import { migrate } from '../src/db/migrations.js';
import { storageFor, type FileStorage } from '../src/storage/index.js';
import { createTestDatabase, dialect, testEnv, type TestDatabase } from './helpers.js';

const work = mkdtempSync(join(tmpdir(), 'chat-site-backup-text-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** The columns that point at another table's id; the test fails when the schema has others. */
const references: Record<string, Record<string, string>> = {
  sessions: { user_id: 'users' },
  bulletin_revisions: { bulletin_id: 'bulletins' },
};

/** Text that has broken line-based formats, and then anything at all. */
const awkward = [
  'a\u2028b',
  '\u2029',
  'x\u0000y',
  '\ud800',
  'z\udfff',
  '😀𝄞',
  '\r\n',
  '"\\',
  'x\u2028'.repeat(100_000),
];
const text = fc.oneof(
  fc.constantFrom(...awkward),
  fc.string({ unit: 'binary' }),
  fc.array(fc.constantFrom(...awkward.slice(0, -1), 'é', 'a')).map((parts) => parts.join('')),
  fc
    .tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }), fc.integer({ min: 200, max: 2000 }))
    .map(([unit, times]) => unit.repeat(times)),
);
const number = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });

interface Site {
  database: TestDatabase;
  db: Db;
  storage: FileStorage;
  close(): Promise<void>;
}

async function openSite(): Promise<Site> {
  const database = await createTestDatabase();
  const config = loadConfig(testEnv(database));
  const db = connect(config.database);
  const storage = storageFor(config.storage);
  return {
    database,
    db,
    storage,
    close: async () => {
      await db.close();
      await storage.close();
      await database.drop();
    },
  };
}

type Row = Record<string, unknown>;
const fileKey = '0123456789abcdef-file.txt';

/** Rows for every table but stored_files (whose rows need files: see fileRow). */
function rowsFor(tables: TableInfo[]): fc.Arbitrary<Record<string, Row[]>> {
  const perTable = tables
    .filter((table) => table.name !== 'stored_files')
    .map((table) => {
      const columns = table.columns.filter((column) => column.name !== table.sequenceColumn);
      const row = fc.record(
        Object.fromEntries(columns.map((column) => [column.name, /int/.test(column.type) ? number : text])),
      );
      return [table.name, fc.array(row, { maxLength: 3 })] as const;
    });
  return fc.record(Object.fromEntries(perTable));
}

/** What this database can hold of `value`: PostgreSQL refuses NUL in text, and the product
 * refuses it where text comes in (docs/backups.md#text-postgresql-cannot-hold). */
const storable = (value: unknown) =>
  typeof value === 'string' && dialect === 'postgres' ? value.replaceAll('\u0000', '') : value;

async function fill(site: Site, tables: TableInfo[], rows: Record<string, Row[]>, fileName: string): Promise<void> {
  const indexed = await indexedColumns(site.db);
  const ids: Record<string, number[]> = {};
  for (const table of dependencyOrder(tables)) {
    ids[table.name] = [];
    const given = rows[table.name] ?? [];
    for (const [index, row] of given.entries()) {
      const values: Row = {};
      for (const [column, value] of Object.entries(row)) {
        const target = references[table.name]?.[column];
        const keyed = indexed.has(`${table.name}.${column}`);
        if (target !== undefined) values[column] = ids[target]?.[index % Math.max(1, ids[target].length)];
        // Indexed text is short (PostgreSQL's indexes take about 2,700 bytes a value at most) and
        // differs from row to row (keys, unique names).
        else
          values[column] =
            keyed && typeof value === 'string' ? `${index}${storable(value.slice(0, 200))}` : storable(value);
      }
      if (Object.values(values).some((value) => value === undefined)) continue; // nothing to point at
      const columns = sql.join(Object.keys(values).map((column) => sql.ref(column)));
      const inserted = await sql<{ id?: number }>`
        INSERT INTO ${sql.table(table.name)} (${columns}) VALUES (${sql.join(Object.values(values))})
        ${table.sequenceColumn === undefined ? sql`` : sql`RETURNING ${sql.ref(table.sequenceColumn)} AS id`}`.execute(
        site.db.kysely,
      );
      const id = inserted.rows[0]?.id;
      if (id !== undefined) ids[table.name]?.push(Number(id));
    }
  }
  // One hosted file, whose row's free text is as awkward as the rest.
  const staged = await site.storage.stage(Readable.from([Buffer.from('bytes')]), { maxBytes: 5 }, 'text/plain');
  await staged.commit(fileKey);
  await sql`INSERT INTO stored_files (key, name, content_type, size, sha256, created_at, uploaded_by)
    VALUES (${fileKey}, ${storable(fileName)}, 'text/plain', 5, ${staged.sha256}, ${storable(fileName)}, ${storable(fileName)})`.execute(
    site.db.kysely,
  );
}

/** `table.column` for every column some index covers (primary keys and unique ones among them). */
async function indexedColumns(db: Db): Promise<Set<string>> {
  const { rows } =
    db.dialect === 'sqlite'
      ? await sql<{ name: string }>`
          SELECT t.name || '.' || ii.name AS name FROM sqlite_master t, pragma_index_list(t.name) il,
          pragma_index_info(il.name) ii WHERE t.type = 'table'`.execute(db.kysely)
      : await sql<{ name: string }>`
          SELECT c.relname || '.' || a.attname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
          JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
          WHERE c.relnamespace = to_regnamespace(current_schema())`.execute(db.kysely);
  return new Set(rows.map((row) => row.name));
}

/** No row in any table (the migrations stay), no file in the storage. */
async function empty(site: Site, tables: TableInfo[]): Promise<void> {
  for (const table of dependencyOrder(tables).reverse()) {
    await sql`DELETE FROM ${sql.table(table.name)}`.execute(site.db.kysely);
  }
  await site.storage.delete(fileKey);
}

/** Every value of every table, as JSON (which tells every string apart, lone surrogates too). */
async function everyValue(db: Db): Promise<Record<string, string[]>> {
  const kysely = db.kysely as unknown as AnyDb;
  const tables: Record<string, string[]> = {};
  for (const table of await readCatalog(kysely, db.dialect)) {
    const { rows } = await sql<Row>`SELECT * FROM ${sql.table(table.name)}`.execute(kysely);
    tables[table.name] = rows.map((row) => JSON.stringify(row, Object.keys(row).sort())).sort();
  }
  return tables;
}

describe(`any text round trip (${dialect})`, () => {
  test('every value of every table comes back unchanged', async () => {
    const probe = await openSite();
    await migrate(probe.db, probe.storage);
    const tables = await readCatalog(probe.db.kysely as unknown as AnyDb, probe.db.dialect);
    await probe.close();
    // Every version of an announcement and of its revisions is among the text filled with anything
    // (docs/behaviour.md#announcements-in-every-language).
    for (const name of ['bulletins', 'bulletin_revisions']) {
      const columns = tables.find((table) => table.name === name)?.columns.map((column) => column.name) ?? [];
      for (const column of ['title_tw', 'content_tw', 'tw_by_hand', 'title_en', 'content_en']) {
        assert.ok(columns.includes(column), `${name}.${column} is backed up`);
      }
    }
    for (const table of tables) {
      const known = Object.values(references[table.name] ?? {});
      assert.deepEqual([...table.references].sort(), [...new Set(known)].sort(), `the references of ${table.name}`);
    }
    // One source and one target for every run, emptied in between: a new database for each run
    // costs seconds on PostgreSQL.
    const source = await openSite();
    const target = await openSite();
    await migrate(source.db, source.storage);
    await migrate(target.db, target.storage);
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(rowsFor(tables), text, async (rows, fileName) => {
          await empty(source, tables);
          await empty(target, tables);
          await source.db.kysely
            .transaction()
            .execute((trx) => fill({ ...source, db: { ...source.db, kysely: trx } }, tables, rows, fileName));
          const archive = join(work, `run-${run++}.tar${run % 2 === 0 ? '.gz' : ''}`);
          await backup({ db: source.db, storage: source.storage, to: archive });
          await restore({ db: target.db, storage: target.storage, from: archive });
          assert.deepEqual(await everyValue(target.db), await everyValue(source.db));
        }),
        { numRuns: 8 },
      );
    } finally {
      await source.close();
      await target.close();
    }
  });

  test('a row line escapes U+2028 and U+2029, and lines split at \\n alone', async () => {
    const line = rowLine({ title: 'a\u2028b\u2029c' });
    assert.equal(line, '{"title":"a\\u2028b\\u2029c"}\n');
    // An archive made before they were escaped holds them raw: still one line each.
    const path = join(work, 'old.jsonl');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path, '{"title":"a\u2028b"}\n{"title":"\u2029"}\n');
    const lines = [];
    for await (const read of fileLines(path)) lines.push(JSON.parse(read) as unknown);
    assert.deepEqual(lines, [{ title: 'a\u2028b' }, { title: '\u2029' }]);
  });
});

describe('text PostgreSQL cannot hold', () => {
  test(
    'a SQLite archive with a NUL is refused by PostgreSQL, naming table and column, leaving it empty',
    { skip: dialect !== 'postgres' },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'chat-site-backup-nul-'));
      const config = loadConfig(
        testEnv(
          { url: `sqlite:${join(dir, 'site.db')}`, drop: async () => undefined },
          { STORAGE_URL: `file:${dir}/files` },
        ),
      );
      const db = connect(config.database);
      const storage = storageFor(config.storage);
      const target = await openSite();
      try {
        await migrate(db, storage);
        await sql`INSERT INTO settings (key, value, updated_at) VALUES ('k', ${'a\u0000b'}, 'now')`.execute(db.kysely);
        const archive = join(work, 'nul.tar');
        await backup({ db, storage, to: archive });
        await assert.rejects(
          restore({ db: target.db, storage: target.storage, from: archive }),
          (error: Error) => error instanceof RestoreRefusedError && /settings\.value .*NUL/.test(error.message),
        );
        for (const [table, rows] of Object.entries(await everyValue(target.db))) assert.deepEqual(rows, [], table);
        assert.equal(await target.storage.anyKey(), undefined);
      } finally {
        await db.close();
        await storage.close();
        await target.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
