/**
 * The audit log's filters (docs/console.md#the-audit-log): who, which action, a range of days in
 * the server's time zone, and words found in the target or in the state before or after.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { fromWireTime } from '../lib/time.js';

export interface AuditFilter {
  /** An actor or a target, exactly. */
  who?: string;
  action?: string;
  /** ISO instants: from (inclusive) and to (exclusive). */
  from?: string;
  to?: string;
  /** Words anywhere in the target or the recorded states, in any case. */
  q?: string;
}

/** The instants a range of whole days covers (`YYYY-MM-DD`, both ends included) in `timeZone`. */
export function dayRange(from: string, to: string, timeZone: string): { from?: string; to?: string } {
  const start = from === '' ? undefined : fromWireTime(`${from} 00:00:00`, timeZone);
  const nextDay = (day: string) => {
    const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
    return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
  };
  const end = to === '' ? undefined : fromWireTime(`${nextDay(to)} 00:00:00`, timeZone);
  return { ...(start !== undefined && { from: start }), ...(end !== undefined && { to: end }) };
}

/** The audit log's rows that `filter` lets through. */
export function filteredAudit(db: Kysely<Database>, filter: AuditFilter) {
  let query = db.selectFrom('audit_log');
  const who = filter.who?.trim() ?? '';
  if (who !== '') query = query.where((eb) => eb.or([eb('actor', '=', who), eb('target', '=', who)]));
  if (filter.action !== undefined && filter.action !== '') query = query.where('action', '=', filter.action);
  if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('at', '<', filter.to);
  const words = filter.q?.trim().toLowerCase() ?? '';
  if (words !== '') {
    const pattern = `%${words.replaceAll(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const like = (column: 'target' | 'before' | 'after' | 'actor') =>
      sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    query = query.where((eb) => eb.or([like('target'), like('before'), like('after'), like('actor')]));
  }
  return query;
}
