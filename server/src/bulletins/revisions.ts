/**
 * Revisions: every create, save, publish and restore of an announcement keeps what it wrote,
 * who wrote it and when, in the same transaction as the write itself, so a revision never names
 * a version that was not saved (docs/console.md#revisions).
 */
import type { Kysely } from 'kysely';
import type { BulletinRevisionRow, Database, RevisionAction } from '../db/schema.js';
import { nowIso } from '../lib/time.js';
import {
  createBulletin,
  findBulletin,
  updateBulletin,
  type BulletinInput,
  type BulletinPatch,
  type UpdateResult,
} from './repository.js';

type DbHandle = Kysely<Database>;

export interface RevisionOrigin {
  actor: string;
  action: RevisionAction;
  restoredFrom?: number;
}

/** Keeps the announcement's current state as a revision. */
export async function recordRevision(db: DbHandle, id: number, origin: RevisionOrigin): Promise<void> {
  const row = await findBulletin(db, id);
  if (row === undefined) return;
  await db
    .insertInto('bulletin_revisions')
    .values({
      bulletin_id: id,
      version: Number(row.version),
      title: row.title,
      content: row.content,
      pinned: row.pinned,
      state: row.state,
      publish_at: row.created_at,
      action: origin.action,
      restored_from: origin.restoredFrom ?? null,
      actor: origin.actor,
      at: nowIso(),
      title_tw: row.title_tw,
      content_tw: row.content_tw,
      tw_by_hand: row.tw_by_hand,
      title_en: row.title_en,
      content_en: row.content_en,
    })
    .execute();
}

/** updateBulletin, keeping the result as a revision when it was written. */
export async function saveWithRevision(
  db: DbHandle,
  id: number,
  patch: BulletinPatch,
  expectedVersion: number | undefined,
  origin: RevisionOrigin,
): Promise<UpdateResult> {
  return db.transaction().execute(async (trx) => {
    const result = await updateBulletin(trx, id, patch, expectedVersion);
    if (result === 'updated') await recordRevision(trx, id, origin);
    return result;
  });
}

/** The announcement's revisions, newest first, without their text. */
export async function listRevisions(db: DbHandle, bulletinId: number) {
  return db
    .selectFrom('bulletin_revisions')
    .select(['id', 'version', 'title', 'pinned', 'state', 'publish_at', 'action', 'restored_from', 'actor', 'at'])
    .where('bulletin_id', '=', bulletinId)
    .orderBy('id', 'desc')
    .execute();
}

export async function findRevision(
  db: DbHandle,
  bulletinId: number,
  revisionId: number,
): Promise<BulletinRevisionRow | undefined> {
  return db
    .selectFrom('bulletin_revisions')
    .selectAll()
    .where('bulletin_id', '=', bulletinId)
    .where('id', '=', revisionId)
    .executeTakeFirst();
}

/** What writing the revision back changes: its title, text and settings (a normal save). */
export const patchOf = (revision: BulletinRevisionRow): BulletinPatch => ({
  title: revision.title,
  content: revision.content,
  pinned: revision.pinned === 1,
  state: revision.state,
  createdAt: revision.publish_at,
  // A traditional version the operator wrote comes back as written; a made one is made again,
  // so that it is what today's converter makes of the simplified.
  traditional:
    Number(revision.tw_by_hand) === 1 ? { title: revision.title_tw, content: revision.content_tw } : 'convert',
  english: { title: revision.title_en, content: revision.content_en },
});

/** createBulletin, keeping the new announcement as its first revision. */
export async function createWithRevision(db: DbHandle, input: BulletinInput, actor: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const id = await createBulletin(trx, input);
    await recordRevision(trx, id, { actor, action: 'create' });
    return id;
  });
}
