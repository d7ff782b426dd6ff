/** What every command shares: the database it works on, the time zone it shows times in, and
 * the error that marks a mistake of the operator rather than a failure of the system. */
import type { Kysely } from 'kysely';
import { ConfigError, defaultTimeZone, isTimeZone, loadDatabaseTarget } from '../config.js';
import { connect } from '../db/connect.js';
import { migrate } from '../db/migrations.js';
import type { Database } from '../db/schema.js';

/** Bad input: reported as one `error:` line and exit code 2, like commander's own usage errors. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Opens the database named by DATABASE_URL, brings its schema up to date (so every command
 * works on a fresh database) and closes it once the work is done, whether or not it failed. */
export async function withDb<T>(work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  const db = connect(databaseTarget());
  try {
    await migrate(db);
    return await work(db.kysely);
  } finally {
    await db.close();
  }
}

function databaseTarget() {
  try {
    return loadDatabaseTarget(process.env);
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
