import type { BulletinDetail, BulletinListItem, Language } from '@chat-site/contract';
import { sql, type Kysely } from 'kysely';
import type { BulletinRow, BulletinState, Database } from '../db/schema.js';
import { htmlText } from '../lib/html-text.js';
import { nowIso, toWireTime } from '../lib/time.js';
import { languageVersion } from './languages.js';

/** Which version of an announcement a visitor reads, for the other resources (reach/). */
export { languageVersion };
import { traditionalHtml, traditionalText } from '../lib/chinese-scripts.js';

export interface BulletinInput {
  title: string;
  content: string;
  pinned: boolean;
  /** When it becomes public (and the date shown); now when absent. Later than now: scheduled. */
  createdAt?: string;
  /** 'published' when absent. */
  state?: BulletinState;
  /** When it goes back to being a draft by itself; null: never. */
  unpublishAt?: string | null;
  /** When it stops being pinned by itself; null: never. */
  unpinAt?: string | null;
  /** The traditional Chinese written by hand; absent: made from the simplified. */
  traditional?: Version;
  /** The English written by hand; empty title and body: none. */
  english?: Version;
}

/** An announcement's title and body in one language. */
export interface Version {
  title: string;
  content: string;
}

/** `traditional: 'convert'` makes it follow the simplified text again (重新转换). */
export type BulletinPatch = Partial<Omit<BulletinInput, 'traditional'>> & { traditional?: Version | 'convert' };

type DbHandle = Kysely<Database>;

/** Announcements published and not deleted, whether their publication time has come or not. */
export function publishedBulletins(db: DbHandle) {
  return db.selectFrom('bulletins').where('state', '=', 'published').where('deleted_at', 'is', null);
}

/** Announcements a visitor may see at `now`: published, not deleted, and due. */
export function visibleBulletins(db: DbHandle, now = nowIso()) {
  return publishedBulletins(db).where('created_at', '<=', now);
}

/** Pinned first, then newest first; id breaks ties so paging is stable. */
export async function listBulletinPage(
  db: DbHandle,
  page: { index: number; size: number },
): Promise<{ count: number; rows: BulletinRow[] }> {
  const now = nowIso();
  const [count, rows] = await Promise.all([
    countBulletins(db, now),
    visibleBulletins(db, now)
      .selectAll()
      .orderBy('pinned', 'desc')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.size)
      .offset((page.index - 1) * page.size)
      .execute(),
  ]);
  return { count, rows };
}

/** How many announcements a visitor may see now. */
export async function countBulletins(db: DbHandle, now = nowIso()): Promise<number> {
  const counted = await visibleBulletins(db, now)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(counted.count);
}

/** Every announcement that is not deleted, drafts and scheduled ones too, in the order the site
 * shows them; for the operator's command line. */
export async function listAllBulletins(db: DbHandle): Promise<BulletinRow[]> {
  return db
    .selectFrom('bulletins')
    .selectAll()
    .where('deleted_at', 'is', null)
    .orderBy('pinned', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** One that is not deleted, whether public yet or not: for the operator. */
export async function findBulletin(db: DbHandle, id: number): Promise<BulletinRow | undefined> {
  return db.selectFrom('bulletins').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

/** One a visitor may see now. */
export async function findPublishedBulletin(db: DbHandle, id: number): Promise<BulletinRow | undefined> {
  return visibleBulletins(db).selectAll().where('id', '=', id).executeTakeFirst();
}

/** A change's updated_at: now, or its publication when that is later, so that nothing public is
 * ever older than the moment it appeared (feeds and the sitemap date entries by it). */
const updatedAt = (createdAt: string | undefined, now: string) =>
  createdAt !== undefined && createdAt > now ? createdAt : now;

export async function createBulletin(db: DbHandle, input: BulletinInput): Promise<number> {
  const now = nowIso();
  const row = await db
    .insertInto('bulletins')
    .values({
      title: input.title,
      content: input.content,
      content_text: htmlText(input.content),
      pinned: input.pinned ? 1 : 0,
      created_at: input.createdAt ?? now,
      updated_at: updatedAt(input.createdAt, now),
      state: input.state ?? 'published',
      deleted_at: null,
      unpublish_at: input.unpublishAt ?? null,
      unpin_at: input.unpinAt ?? null,
      title_tw: input.traditional?.title ?? traditionalText(input.title),
      content_tw: input.traditional?.content ?? traditionalHtml(input.content),
      tw_by_hand: input.traditional === undefined ? 0 : 1,
      title_en: input.english?.title ?? '',
      content_en: input.english?.content ?? '',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export type UpdateResult = 'updated' | 'missing' | 'conflict';

/** Applies `patch` when the announcement exists and, if `expectedVersion` is given, is still at
 * that version: two operators saving the same version never overwrite each other silently. */
export async function updateBulletin(
  db: DbHandle,
  id: number,
  patch: BulletinPatch,
  expectedVersion?: number,
): Promise<UpdateResult> {
  const now = nowIso();
  const traditional = await traditionalPatch(db, id, patch);
  let update = db
    .updateTable('bulletins')
    .set((eb) => ({
      ...traditional,
      ...(patch.english !== undefined && { title_en: patch.english.title, content_en: patch.english.content }),
      ...(patch.title !== undefined && { title: patch.title }),
      ...(patch.content !== undefined && { content: patch.content, content_text: htmlText(patch.content) }),
      ...(patch.pinned !== undefined && { pinned: patch.pinned ? 1 : 0 }),
      ...(patch.state !== undefined && { state: patch.state }),
      ...(patch.createdAt !== undefined && { created_at: patch.createdAt }),
      ...(patch.unpublishAt !== undefined && { unpublish_at: patch.unpublishAt }),
      ...(patch.unpinAt !== undefined && { unpin_at: patch.unpinAt }),
      updated_at: updatedAt(patch.createdAt, now),
      version: eb('version', '+', 1),
    }))
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  if (expectedVersion !== undefined) update = update.where('version', '=', expectedVersion);
  const result = await update.executeTakeFirst();
  if (result.numUpdatedRows > 0n) return 'updated';
  return (await findBulletin(db, id)) === undefined ? 'missing' : 'conflict';
}

/** The traditional columns a patch writes. A version written by hand stays as the operator left
 * it through later simplified edits (a CASE, so that a save racing 重新转换 cannot undo it);
 * 'convert' makes it follow again, from the patch's text or the stored one. */
async function traditionalPatch(db: DbHandle, id: number, patch: BulletinPatch) {
  const { traditional } = patch;
  if (typeof traditional === 'object') {
    return { title_tw: traditional.title, content_tw: traditional.content, tw_by_hand: 1 };
  }
  if (traditional === 'convert') {
    const row = await findBulletin(db, id);
    const title = patch.title ?? row?.title ?? '';
    const content = patch.content ?? row?.content ?? '';
    return { title_tw: traditionalText(title), content_tw: traditionalHtml(content), tw_by_hand: 0 };
  }
  const following = (made: string, column: 'title_tw' | 'content_tw') =>
    sql<string>`case when tw_by_hand = 1 then ${sql.ref(column)} else ${made} end`;
  return {
    ...(patch.title !== undefined && { title_tw: following(traditionalText(patch.title), 'title_tw') }),
    ...(patch.content !== undefined && { content_tw: following(traditionalHtml(patch.content), 'content_tw') }),
  };
}

/** Moves it to the trash, from which restoreBulletin brings it back (bulletins/trash.ts);
 * answers false when there is no such announcement. */
export async function removeBulletin(db: DbHandle, id: number): Promise<boolean> {
  const result = await db
    .updateTable('bulletins')
    .set((eb) => ({ deleted_at: nowIso(), version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Brings back one deleted at or after `since`; answers false when there is none to bring back. */
export async function restoreBulletin(db: DbHandle, id: number, since: string): Promise<boolean> {
  const result = await db
    .updateTable('bulletins')
    .set((eb) => ({ deleted_at: null, version: eb('version', '+', 1), updated_at: nowIso() }))
    .where('id', '=', id)
    .where('deleted_at', '>=', since)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** One announcement of a public page, in `language` when it has that version. */
export function toListItem(row: BulletinRow, timeZone: string, language?: Language): BulletinListItem {
  const version = languageVersion(row, language);
  return {
    id: row.id,
    title: version.title,
    content: version.content,
    topup: row.pinned === 1 ? 1 : 0,
    created_at: toWireTime(row.created_at, timeZone),
    lang: version.lang,
  };
}

export function toDetail(row: BulletinRow, timeZone: string, language?: Language): BulletinDetail {
  const version = languageVersion(row, language);
  return {
    Id: row.id,
    Title: version.title,
    Content: version.content,
    CreatedAt: toWireTime(row.created_at, timeZone),
    Lang: version.lang,
  };
}
