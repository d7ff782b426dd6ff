/**
 * Keeps SQLite's compiled statements for the SQL Kysely sends again
 * (docs/architecture.md#how-a-request-flows-through-the-server). Kysely's SQLite driver compiles every query anew
 * (`prepare`), which on a read of a row or two costs more than running it: the page's two
 * settings reads spent 14 % of a worker's time there. better-sqlite3 lets one statement run any
 * number of times; one busy in an open iteration (a stream) cannot run again until it ends, so
 * another is compiled for that run. SQLite compiles a kept statement again by itself after a
 * change of the schema.
 */
import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Statements kept at most; Kysely's SQL comes from the code, so a few hundred at most differ,
 * bar lists of varying length (`IN (?, ?, …)`). Past it the oldest is let go. */
const defaultMax = 500;

export function withStatementCache(database: SQLite.Database, max = defaultMax): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(source: string): SqliteStatement {
      const statement = kept.get(source);
      if (statement !== undefined && !statement.busy) return statement;
      const fresh = database.prepare(source);
      if (statement === undefined) {
        if (kept.size >= max) kept.delete(kept.keys().next().value as string);
        kept.set(source, fresh);
      }
      return fresh;
    },
  };
}
