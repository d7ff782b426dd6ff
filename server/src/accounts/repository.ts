/** Operator accounts, their sessions and the audit log, as plain functions over the database. */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AuditRow, Database, Role, UserRow } from '../db/schema.js';
import { nowIso } from '../lib/time.js';
import { filteredAudit, type AuditFilter } from './audit-filter.js';

type DbHandle = Kysely<Database>;

export const roles: readonly Role[] = ['admin', 'editor'];

export const nameKey = (name: string) => name.normalize('NFC').toLowerCase();

export async function findUser(db: DbHandle, name: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('name_key', '=', nameKey(name)).executeTakeFirst();
}

export async function listUsers(db: DbHandle): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().orderBy('name_key').execute();
}

export async function countUsers(db: DbHandle): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** False when the name is taken (in any case). */
export async function addUser(
  db: DbHandle,
  user: { name: string; role: Role; passwordHash: string },
): Promise<boolean> {
  const now = nowIso();
  const result = await db
    .insertInto('users')
    .values({
      name: user.name,
      name_key: nameKey(user.name),
      role: user.role,
      password_hash: user.passwordHash,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.column('name_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export async function removeUser(db: DbHandle, name: string): Promise<boolean> {
  const user = await findUser(db, name);
  if (user === undefined) return false;
  await db.deleteFrom('sessions').where('user_id', '=', user.id).execute();
  await db.deleteFrom('users').where('id', '=', user.id).execute();
  return true;
}

/** Sets a new password and ends every session of the user except `keep` (a token hash). */
export async function setPassword(db: DbHandle, userId: number, passwordHash: string, keep?: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: nowIso() })
    .where('id', '=', userId)
    .execute();
  let ending = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keep !== undefined) ending = ending.where('token_hash', '!=', keep);
  await ending.execute();
}

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

export interface SessionLimits {
  idleMs: number;
  maxMs: number;
}

/** Starts a session; answers the token for the cookie (only its hash is stored). */
export async function startSession(
  db: DbHandle,
  userId: number,
  limits: SessionLimits,
  client: { address: string; userAgent: string },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  await db
    .insertInto('sessions')
    .values({
      token_hash: tokenHash(token),
      user_id: userId,
      created_at: new Date(now).toISOString(),
      last_seen_at: new Date(now).toISOString(),
      expires_at: new Date(now + limits.maxMs).toISOString(),
      client: client.address,
      user_agent: client.userAgent.slice(0, 300),
    })
    .execute();
  return token;
}

export interface SessionUser {
  id: number;
  name: string;
  role: Role;
  tokenHash: string;
}

/**
 * How stale a session's last_seen_at may get before a request writes it again: a twentieth of the
 * idle limit, at most 30 s, so that reads do not turn into a write each.
 */
const seenEveryMs = (limits: SessionLimits) => Math.min(30_000, limits.idleMs / 20);

/**
 * The user of a session token, or undefined when there is no such session or it has ended (idle
 * too long, or past its absolute end; an ended one is deleted). last_seen_at may be up to
 * seenEveryMs older than the session's last request, so the idle limit is counted from
 * last_seen_at plus that much: a session used more often than the idle limit never ends
 * (docs/behaviour.md#operator-accounts).
 */
export async function sessionUser(
  db: DbHandle,
  token: string,
  limits: SessionLimits,
): Promise<SessionUser | undefined> {
  const hash = tokenHash(token);
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.id', 'users.name', 'users.role', 'sessions.last_seen_at', 'sessions.expires_at'])
    .where('sessions.token_hash', '=', hash)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const now = Date.now();
  const unseenMs = now - Date.parse(row.last_seen_at);
  if (now >= Date.parse(row.expires_at) || unseenMs >= limits.idleMs + seenEveryMs(limits)) {
    await endSession(db, hash);
    return undefined;
  }
  if (unseenMs > seenEveryMs(limits)) {
    await db
      .updateTable('sessions')
      .set({ last_seen_at: new Date(now).toISOString() })
      .where('token_hash', '=', hash)
      .execute();
  }
  return { id: row.id, name: row.name, role: row.role, tokenHash: hash };
}

export async function endSession(db: DbHandle, hash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', hash).execute();
}

export interface AuditEntry {
  actor: string;
  action: string;
  target: string;
  before?: unknown;
  after?: unknown;
}

export async function recordAudit(db: DbHandle, entry: AuditEntry): Promise<void> {
  const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
  await db
    .insertInto('audit_log')
    .values({
      at: nowIso(),
      actor: entry.actor,
      action: entry.action,
      target: entry.target,
      before: json(entry.before),
      after: json(entry.after),
    })
    .execute();
}

/** The newest entries first; only those `page`'s filter lets through (audit-filter.ts). */
export async function listAudit(
  db: DbHandle,
  page: { limit: number; offset: number } & AuditFilter,
): Promise<AuditRow[]> {
  return filteredAudit(db, page)
    .selectAll()
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countAudit(db: DbHandle, filter: AuditFilter = {}): Promise<number> {
  const row = await filteredAudit(db, filter)
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
