import assert from 'node:assert/strict';
import { test } from 'node:test';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { withStatementCache } from '../src/db/statement-cache.js';

interface Schema {
  item: { id: number; name: string };
}

/** A real in-memory SQLite database behind Kysely, with the number of statements it compiled. */
function open(max?: number) {
  const database = new SQLite(':memory:');
  database.exec('CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  let compiled = 0;
  const prepare = database.prepare.bind(database);
  database.prepare = ((source: string) => {
    compiled++;
    return prepare(source);
  }) as typeof database.prepare;
  const kysely = new Kysely<Schema>({ dialect: new SqliteDialect({ database: withStatementCache(database, max) }) });
  return { kysely, database, compiled: () => compiled };
}

test('a query run again reuses its compiled statement', async () => {
  const { kysely, compiled } = open();
  await kysely.insertInto('item').values({ id: 1, name: 'one' }).execute();
  await kysely.insertInto('item').values({ id: 2, name: 'two' }).execute();
  const before = compiled();
  for (const id of [1, 2, 1, 2]) {
    const row = await kysely.selectFrom('item').select('name').where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(row.name, id === 1 ? 'one' : 'two');
  }
  assert.equal(compiled() - before, 1, 'one statement for four runs of the same SQL');
  await kysely.destroy();
});

test('a statement busy in an open iteration is not handed out again', () => {
  // Kysely runs one query at a time on SQLite; other users of the adapter may not.
  const database = new SQLite(':memory:');
  const cached = withStatementCache(database);
  const source = 'SELECT value FROM json_each(?)';
  const seen: unknown[] = [];
  for (const outer of cached.prepare(source).iterate(['[1,2,3]'])) {
    assert.deepEqual(cached.prepare(source).all(['[4]']), [{ value: 4 }]);
    seen.push((outer as { value: number }).value);
  }
  assert.deepEqual(seen, [1, 2, 3]);
  // Once the iteration ended, the kept statement is handed out again.
  assert.equal(cached.prepare(source), cached.prepare(source));
  database.close();
});

test('statements stay right across a change of the schema', async () => {
  const { kysely } = open();
  await kysely.insertInto('item').values({ id: 1, name: 'one' }).execute();
  const read = () => sql<Record<string, unknown>>`SELECT * FROM item`.execute(kysely);
  assert.deepEqual(Object.keys((await read()).rows[0] ?? {}), ['id', 'name']);
  await sql`ALTER TABLE item ADD COLUMN note TEXT DEFAULT 'x'`.execute(kysely);
  assert.deepEqual((await read()).rows[0], { id: 1, name: 'one', note: 'x' });
  await kysely.destroy();
});

test('the cache holds a bounded number of statements', async () => {
  const { kysely, compiled } = open(4);
  // Ten different statements, then the first again: it was let go and is compiled anew.
  for (let n = 0; n < 10; n++) await sql`SELECT ${sql.lit(n)} AS n`.execute(kysely);
  const before = compiled();
  const { rows } = await sql<{ n: number }>`SELECT ${sql.lit(0)} AS n`.execute(kysely);
  assert.deepEqual(rows, [{ n: 0 }]);
  assert.equal(compiled() - before, 1);
  await kysely.destroy();
});

test('closing goes to the database', async () => {
  const { kysely, database } = open();
  await kysely.selectFrom('item').selectAll().execute();
  await kysely.destroy();
  assert.equal(database.open, false);
});
