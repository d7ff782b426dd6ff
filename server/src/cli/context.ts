/** What every command shares: the database it works on, the time zone it shows times in, and
 * the error that marks a mistake of the operator rather than a failure of the system. */
import type { Kysely } from 'kysely';
import {
  ConfigError,
  defaultTimeZone,
  isTimeZone,
  loadDatabaseTarget,
  loadFileSettings,
  type FileSettings,
} from '../config.js';
import { connect, type Db } from '../db/connect.js';
import { databaseName } from '../db/database-names.js';
import { migrate } from '../db/migrations.js';
import type { Database } from '../db/schema.js';
import { storageFor, type FileStorage } from '../storage/index.js';

/** Bad input: reported as one `error:` line and exit code 2, like commander's own usage errors. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Opens the database named by DATABASE_URL, brings its schema up to date (so every command
 * works on a fresh database) and closes it once the work is done, whether or not it failed. */
export async function withDb<T>(work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  return withFiles((db) => work(db));
}

/** Which database the commands work on, for a line that says so: with no DATABASE_URL it is
 * the default file, which is the server's only when the server has no DATABASE_URL either. */
export function databaseInUse(): string {
  const name = databaseName(fromEnvironment(() => loadDatabaseTarget(process.env)));
  return process.env.DATABASE_URL ? name : `${name} (DATABASE_URL is not set: the default)`;
}

/** The file storage named by STORAGE_URL and its limits, as the server reads them. */
export interface CliFiles {
  storage: FileStorage;
  settings: FileSettings;
}

/** withDb, with the file storage too (which an older database's migration also needs). */
export async function withFiles<T>(work: (db: Kysely<Database>, files: CliFiles) => Promise<T>): Promise<T> {
  return withConnection((db, files) => work(db.kysely, files));
}

/** The connection itself (its dialect too) and the file storage. `migrate: false` leaves the
 * schema as it is, for a restore that brings it to the archive's own. */
export async function withConnection<T>(
  work: (db: Db, files: CliFiles) => Promise<T>,
  options: { migrate: boolean } = { migrate: true },
): Promise<T> {
  const settings = fromEnvironment(() => loadFileSettings(process.env));
  const db = connect(fromEnvironment(() => loadDatabaseTarget(process.env)));
  const storage = storageFor(settings.storage);
  try {
    if (options.migrate) await migrate(db, storage);
    return await work(db, { storage, settings });
  } finally {
    await db.close();
    await storage.close();
  }
}

function fromEnvironment<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.problems.join('; '));
    throw error;
  }
}

/** The zone the server shows times in: the same TIME_ZONE setting and default. */
export function timeZone(): string {
  const zone = process.env.TIME_ZONE || defaultTimeZone;
  if (!isTimeZone(zone)) throw new UsageError(`TIME_ZONE "${zone}" is not a known IANA time zone`);
  return zone;
}
