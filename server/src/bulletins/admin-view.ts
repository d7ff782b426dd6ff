/** Announcements as the console sees them: drafts, scheduled and published alike, searchable. */
import type { AdminBulletin, BulletinStatus, LanguageVersions, ListFilter } from '@chat-site/contract/admin';
import { sql, type Kysely } from 'kysely';
import type { BulletinRow, Database } from '../db/schema.js';
import { nowIso, toWireTime } from '../lib/time.js';
import { simplifiedText, traditionalText } from '../lib/chinese-scripts.js';

export function statusOf(row: BulletinRow, now = nowIso()): BulletinStatus {
  if (row.state === 'draft') return 'draft';
  return row.created_at > now ? 'scheduled' : 'published';
}

/** The traditional and English versions as the console reads them, of an announcement or a
 * revision. */
export function languageVersions(
  row: Pick<BulletinRow, 'title_tw' | 'content_tw' | 'tw_by_hand' | 'title_en' | 'content_en'>,
): LanguageVersions {
  return {
    title_tw: row.title_tw,
    content_tw: row.content_tw,
    tw_by_hand: Number(row.tw_by_hand) === 1 ? 1 : 0,
    title_en: row.title_en,
    content_en: row.content_en,
  };
}

export function toAdminBulletin(row: BulletinRow, timeZone: string, now = nowIso()): AdminBulletin {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    topup: row.pinned === 1 ? 1 : 0,
    status: statusOf(row, now),
    publish_at: toWireTime(row.created_at, timeZone),
    updated_at: toWireTime(row.updated_at, timeZone),
    version: Number(row.version),
    unpublish_at: row.unpublish_at === null ? null : toWireTime(row.unpublish_at, timeZone),
    unpin_at: row.unpin_at === null ? null : toWireTime(row.unpin_at, timeZone),
    ...languageVersions(row),
  };
}

/** The search as typed and in the other Chinese script: a traditional query finds what was
 * written in simplified and the other way round. Only a search with Chinese in it loads the
 * converter. */
function searchForms(search: string): string[] {
  if (!/\p{Script=Han}/u.test(search)) return [search];
  return [...new Set([search, simplifiedText(search), traditionalText(search)])];
}

/** A page of the announcements that are not deleted, newest first (by when they are or will be
 * public), whose title or body text contains `search` (any case; the body's markup is never
 * matched: docs/console.md#searching-announcements), narrowed by `filter`. */
export async function adminBulletinPage(
  db: Kysely<Database>,
  query: { search: string; filter: ListFilter; index: number; size: number },
): Promise<{ count: number; rows: BulletinRow[] }> {
  const now = nowIso();
  let base = db.selectFrom('bulletins').where('deleted_at', 'is', null);
  if (query.search !== '') {
    const matches = searchForms(query.search).map((form) => {
      const pattern = `%${form.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
      return sql<boolean>`lower(title) like ${pattern} escape '\\' or lower(content_text) like ${pattern} escape '\\'
        or lower(title_tw) like ${pattern} escape '\\' or lower(title_en) like ${pattern} escape '\\'`;
    });
    base = base.where(sql<boolean>`(${sql.join(matches, sql` or `)})`);
  }
  if (query.filter === 'draft') base = base.where('state', '=', 'draft');
  if (query.filter === 'published' || query.filter === 'pinned') {
    base = base.where('state', '=', 'published').where('created_at', '<=', now);
  }
  if (query.filter === 'pinned') base = base.where('pinned', '=', 1);
  if (query.filter === 'scheduled') base = base.where('state', '=', 'published').where('created_at', '>', now);
  const [counted, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.size)
      .offset((query.index - 1) * query.size)
      .execute(),
  ]);
  return { count: Number(counted.count), rows };
}
