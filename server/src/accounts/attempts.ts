/**
 * Password checks counted in the database, before each check starts, so that every worker and
 * every server sharing the database holds the same limits however many guesses arrive at once
 * (docs/console.md#sign-in-limits). Each count is one statement (an upsert that answers the new
 * count), atomic on SQLite and PostgreSQL alike.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type DbHandle = Kysely<Database>;

export interface AttemptLimits {
  /** Checks per account from one client (its address or IPv6 /64) in a window. */
  perPair: number;
  /** Checks per client, all accounts together. */
  perClient: number;
  /** Checks per account, all clients together. */
  perAccount: number;
  windowMs: number;
}

interface Counted {
  key: string;
  since: string;
}

export type Admission = { admitted: true; counted: Counted[] } | { admitted: false; retryAfterMs: number };

/** The narrowest first: a client refused for its pair never adds to the wider counts. */
function scopes(limits: AttemptLimits, account: string, client: string) {
  return [
    { key: `pair ${client} ${account}`, max: limits.perPair },
    { key: `client ${client}`, max: limits.perClient },
    { key: `account ${account}`, max: limits.perAccount },
  ];
}

/**
 * Counts one password check of `account` (its name key) from `client` (pipeline/admin-guard.ts
 * clientKey). Over any limit, the counts taken are given back and the answer says how long
 * until the window that refused it ends.
 */
export async function admitAttempt(
  db: DbHandle,
  limits: AttemptLimits,
  account: string,
  client: string,
): Promise<Admission> {
  const now = Date.now();
  const counted: Counted[] = [];
  for (const scope of scopes(limits, account, client)) {
    const row = await countOne(db, scope.key, now, limits.windowMs);
    counted.push({ key: scope.key, since: row.since });
    if (row.attempts > scope.max) {
      await giveBack(db, counted);
      return { admitted: false, retryAfterMs: Math.max(1, Date.parse(row.since) + limits.windowMs - now) };
    }
  }
  return { admitted: true, counted };
}

async function countOne(db: DbHandle, key: string, now: number, windowMs: number) {
  const at = new Date(now).toISOString();
  const ended = new Date(now - windowMs).toISOString();
  const row = await db
    .insertInto('sign_in_attempts')
    .values({ key, attempts: 1, since: at })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet({
        attempts: sql<number>`case when sign_in_attempts.since <= ${ended} then 1 else sign_in_attempts.attempts + 1 end`,
        since: sql<string>`case when sign_in_attempts.since <= ${ended} then excluded.since else sign_in_attempts.since end`,
      }),
    )
    .returning(['attempts', 'since'])
    .executeTakeFirstOrThrow();
  // A new window: the right moment to forget the ones that have ended, a few times a window.
  if (row.since === at) await db.deleteFrom('sign_in_attempts').where('since', '<=', ended).execute();
  return { attempts: Number(row.attempts), since: row.since };
}

/** Takes back counts: those taken for a check a wider limit refused, or a right password's. */
export async function giveBack(db: DbHandle, counted: Counted[]): Promise<void> {
  for (const { key, since } of counted) {
    await db
      .updateTable('sign_in_attempts')
      .set({ attempts: sql<number>`attempts - 1` })
      .where('key', '=', key)
      .where('since', '=', since)
      .where('attempts', '>', 0)
      .execute();
  }
}

/** A right password: the pair starts over, and the wider counts keep only the wrong ones. */
export async function succeeded(db: DbHandle, counted: Counted[]): Promise<void> {
  const [pair, ...wider] = counted;
  if (pair !== undefined) await db.deleteFrom('sign_in_attempts').where('key', '=', pair.key).execute();
  await giveBack(db, wider);
}
