import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type LogEvent,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';
import type pgModule from 'pg';
import type { DatabaseTarget } from '../config.js';
import { lazy } from '../lib/lazy.js';
import type { Database } from './schema.js';
import { withStatementCache } from './statement-cache.js';

export type Dialect = DatabaseTarget['kind'];

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** SQLite only: moves when another connection (another process) commits to the file. */
  sqliteDataVersion?: () => number;
  /** PostgreSQL only: where to open connections of one's own (LISTEN). */
  postgresUrl?: string;
  /** The connections, read by the metrics when scraped (lib/metrics.ts). */
  pool: { readonly totalCount: number; readonly idleCount: number; readonly waitingCount: number };
  close(): Promise<void>;
}

/** The PostgreSQL driver, loaded only for a PostgreSQL database. */
export const loadPg = lazy<typeof pgModule>('pg');

function postgresDriver(): typeof pgModule {
  const pg = loadPg();
  // BIGINT (COUNT(*) among others) arrives from pg as a string; every count here fits a number.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
  return pg;
}

/** Sees every query Kysely runs, with its duration, once metrics are on (lib/metrics.ts); set by
 * the app rather than imported here, so the command line never loads the metrics. */
let queryObserver: ((event: LogEvent) => void) | undefined;

export function observeQueries(observer: (event: LogEvent) => void): void {
  queryObserver = observer;
}

const log = (event: LogEvent) => queryObserver?.(event);

export function connect(target: DatabaseTarget): Db {
  if (target.kind === 'sqlite') {
    const database = openSqlite(target.path);
    const dataVersion = database.prepare('PRAGMA data_version').pluck();
    const kysely = new Kysely<Database>({
      dialect: new WritingSqliteDialect({ database: withStatementCache(database) }),
      log,
    });
    return {
      kysely,
      dialect: 'sqlite',
      // better-sqlite3 is one synchronous connection: queries never wait for another.
      pool: { totalCount: 1, idleCount: 1, waitingCount: 0 },
      sqliteDataVersion: () => dataVersion.get() as number,
      close: () => kysely.destroy(),
    };
  }
  const pool = new (postgresDriver().Pool)({ connectionString: target.url, max: 10, idleTimeoutMillis: 30_000 });
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
  return { kysely, dialect: 'postgres', postgresUrl: target.url, pool, close: () => kysely.destroy() };
}

function openSqlite(path: string): SQLite.Database {
  const onDisk = path !== ':memory:';
  if (onDisk) {
    // The file holds password and session hashes and the audit log: the server's user's alone,
    // whatever the umask (docs/backups.md#file-permissions). Made 0600 before SQLite opens it;
    // SQLite gives -wal and -shm the database file's mode.
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    closeSync(openSync(path, 'a', 0o600));
    keepPrivate(path);
  }
  // better-sqlite3 sets SQLite's busy timeout from `timeout`.
  const database = new SQLite(path, { timeout: busyTimeoutMs });
  // WAL lets several server processes read while one writes; a committed write survives a crash
  // of the process (synchronous=NORMAL only risks the last commits on power loss).
  if (onDisk) useWal(database, path);
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  // Made by an earlier build with the umask's mode: closed to others now.
  if (onDisk) for (const suffix of ['-wal', '-shm']) keepPrivate(`${path}${suffix}`);
  return database;
}

/**
 * Kysely's SQLite dialect, whose transactions take the file's write lock as they begin (BEGIN
 * IMMEDIATE), waiting the busy timeout for it, unless they are read only. A deferred transaction
 * that reads and then writes would take the lock only at its first write; if another process had
 * committed since the read, SQLite answers that write SQLITE_BUSY at once, without waiting, and
 * the whole transaction fails. Read-only transactions (the backup's) stay deferred, so that
 * writers go on beside them.
 */
class WritingSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new WritingSqliteDriver(this.#config);
  }
}

class WritingSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection, settings?: TransactionSettings): Promise<void> {
    const begin = settings?.accessMode === 'read only' ? 'begin' : 'begin immediate';
    await connection.executeQuery(CompiledQuery.raw(begin));
  }
}

/** How long a statement waits for a lock another process holds. */
const busyTimeoutMs = 5000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Switches the file to WAL, which it then keeps: a file already in WAL needs nothing. Switching
 * needs the file to itself, and SQLite answers SQLITE_BUSY at once, without the busy timeout,
 * while another connection holds a write lock: several servers opening a new file at once, or one
 * still migrating it. So the switch is tried again, with short pauses, for up to the busy timeout.
 */
function useWal(database: SQLite.Database, path: string): void {
  const deadline = Date.now() + busyTimeoutMs;
  for (let pauseMs = 2; ; pauseMs = Math.min(pauseMs * 2, 100)) {
    try {
      if (database.pragma('journal_mode', { simple: true }) !== 'wal') database.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error;
      if (Date.now() >= deadline) {
        database.close();
        throw new Error(
          `${path} is locked: another process held its write lock for ${busyTimeoutMs / 1000} s, ` +
            'and SQLite cannot switch a new file to WAL meanwhile',
          { cause: error },
        );
      }
    }
    // The process is opening its database and has nothing else to do meanwhile.
    Atomics.wait(sleeper, 0, 0, pauseMs);
  }
}

/** chmod 0600 when others may read `path`; a file that is missing or someone else's is left. */
function keepPrivate(path: string): void {
  try {
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw error;
  }
}
