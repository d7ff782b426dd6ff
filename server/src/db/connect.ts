import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../config.js';
import type { Database } from './schema.js';

export type Dialect = DatabaseTarget['kind'];

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

// BIGINT (COUNT(*) among others) arrives from pg as a string; every count here fits a number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export function connect(target: DatabaseTarget): Db {
  const kysely =
    target.kind === 'sqlite'
      ? new Kysely<Database>({ dialect: new SqliteDialect({ database: openSqlite(target.path) }) })
      : new Kysely<Database>({
          dialect: new PostgresDialect({
            pool: new pg.Pool({ connectionString: target.url, max: 10, idleTimeoutMillis: 30_000 }),
          }),
        });
  return { kysely, dialect: target.kind, close: () => kysely.destroy() };
}

function openSqlite(path: string): SQLite.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  // WAL lets several server processes read while one writes; a committed write survives a crash
  // of the process (synchronous=NORMAL only risks the last commits on power loss).
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  return database;
}
