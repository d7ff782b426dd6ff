import type { BulletinDetail, BulletinListItem } from '@chat-site/contract';
import type { Kysely } from 'kysely';
import type { BulletinRow, Database } from '../db/schema.js';
import { nowIso, toWireTime } from '../lib/time.js';

export interface BulletinInput {
  title: string;
  content: string;
  pinned: boolean;
  /** ISO instant; now when absent. */
  createdAt?: string;
}

export type BulletinPatch = Partial<Omit<BulletinInput, 'createdAt'>>;

type DbHandle = Kysely<Database>;

/** Pinned first, then newest first; id breaks ties so paging is stable. */
export async function listBulletinPage(
  db: DbHandle,
  page: { index: number; size: number },
): Promise<{ count: number; rows: BulletinRow[] }> {
  const [count, rows] = await Promise.all([
    countBulletins(db),
    db
      .selectFrom('bulletins')
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

export async function countBulletins(db: DbHandle): Promise<number> {
  const counted = await db
    .selectFrom('bulletins')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(counted.count);
}

/** Every bulletin, in the order the site shows them; for the operator's command line. */
export async function listAllBulletins(db: DbHandle): Promise<BulletinRow[]> {
  return db
    .selectFrom('bulletins')
    .selectAll()
    .orderBy('pinned', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function findBulletin(db: DbHandle, id: number): Promise<BulletinRow | undefined> {
  return db.selectFrom('bulletins').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function createBulletin(db: DbHandle, input: BulletinInput): Promise<number> {
  const now = nowIso();
  const row = await db
    .insertInto('bulletins')
    .values({
      title: input.title,
      content: input.content,
      pinned: input.pinned ? 1 : 0,
      created_at: input.createdAt ?? now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Answers false when no bulletin has that id. */
export async function updateBulletin(db: DbHandle, id: number, patch: BulletinPatch): Promise<boolean> {
  const result = await db
    .updateTable('bulletins')
    .set({
      ...(patch.title !== undefined && { title: patch.title }),
      ...(patch.content !== undefined && { content: patch.content }),
      ...(patch.pinned !== undefined && { pinned: patch.pinned ? 1 : 0 }),
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function removeBulletin(db: DbHandle, id: number): Promise<boolean> {
  const result = await db.deleteFrom('bulletins').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export function toListItem(row: BulletinRow, timeZone: string): BulletinListItem {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    topup: row.pinned === 1 ? 1 : 0,
    created_at: toWireTime(row.created_at, timeZone),
  };
}

export function toDetail(row: BulletinRow, timeZone: string): BulletinDetail {
  return { Id: row.id, Title: row.title, Content: row.content, CreatedAt: toWireTime(row.created_at, timeZone) };
}
