/**
 * Revisions and the trash of announcements (docs/console.md#revisions, docs/console.md#trash):
 * every save and publish kept with who and when, a revision written back as a save, the trash
 * listed, restored from, purged early and emptied by the schedule check after 30 days. On
 * SQLite, and on PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AdminBulletin, Revision, RevisionList, TrashPage, VersionConflict } from '@chat-site/contract/admin';
import { buildApp } from '../src/app.js';
import { connect } from '../src/db/connect.js';
import { startTestApp, type TestApp } from './helpers.js';
import { checked } from './checked.js';
import { adminCalls } from './admin-calls.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const { admin, createBulletin: create } = adminCalls(() => t.app);

const revisions = async (id: number) => checked(RevisionList, await admin('GET', `/bulletins/${id}/revisions`)).list;
const auditActions = async (id: number) =>
  (
    await t.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'actor'])
      .where('target', '=', String(id))
      .orderBy('id')
      .execute()
  ).map((row) => `${row.action} by ${row.actor}`);
const exists = async (table: 'bulletins' | 'bulletin_revisions', column: 'id' | 'bulletin_id', id: number) =>
  (await t.db.kysely.selectFrom(table).select(column).where(column, '=', id).execute()).length > 0;

describe('revisions', () => {
  test('every create, save and publish is kept, newest first, with who and when', async () => {
    const id = await create({ title: '初稿', state: 'draft' });
    await admin('PUT', `/bulletins/${id}`, { title: '二稿', content: '<p>改过的正文</p>', version: 1 });
    await admin('PUT', `/bulletins/${id}`, { state: 'published', topup: 1, version: 2 });
    const list = await revisions(id);
    assert.deepEqual(
      list.map((revision) => [revision.version, revision.title, revision.state, revision.topup, revision.action]),
      [
        [3, '二稿', 'published', 1, 'update'],
        [2, '二稿', 'draft', 0, 'update'],
        [1, '初稿', 'draft', 0, 'create'],
      ],
    );
    assert.ok(
      list.every((revision) => revision.by === 'admin-token' && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(revision.at)),
    );
    assert.ok(list[0] !== undefined && !('content' in list[0]), 'the list leaves the text out');
    const first = checked(Revision, await admin('GET', `/bulletins/${id}/revisions/${list[2]?.id}`));
    assert.equal(first.content, '<p>正文</p>');
    assert.equal((await admin('GET', `/bulletins/${id}/revisions/999999`)).statusCode, 404);
    assert.equal((await admin('GET', '/bulletins/999999/revisions')).statusCode, 404);
    const refused = await admin('PUT', `/bulletins/${id}`, { title: '过期的保存', version: 1 });
    assert.equal(refused.statusCode, 409);
    assert.equal((await revisions(id)).length, 3, 'a refused save keeps no revision');
  });

  test('restoring writes the revision back as a save, a revision of its own', async () => {
    const id = await create({ title: '原来的标题', content: '<p>原来的正文</p>' });
    await admin('PUT', `/bulletins/${id}`, { title: '新标题', content: '<p>新正文</p>', topup: 1, version: 1 });
    const oldest = (await revisions(id)).at(-1);
    const res = await admin('POST', `/bulletins/${id}/revisions/${oldest?.id}/restore`, { version: 2 });
    assert.equal(res.statusCode, 200, res.body);
    const restored = checked(AdminBulletin, res);
    assert.deepEqual(
      [restored.title, restored.content, restored.topup, restored.version],
      ['原来的标题', '<p>原来的正文</p>', 0, 3],
    );
    assert.equal(res.headers.etag, '"3"');
    const detail = (await t.app.inject(`/v1/bulletin/detail?id=${id}`)).json<{ Title: string }>();
    assert.equal(detail.Title, '原来的标题', 'the site shows it at once');
    const newest = (await revisions(id))[0];
    assert.deepEqual([newest?.version, newest?.action, newest?.restored_from], [3, 'restore', oldest?.id]);
    assert.deepEqual((await auditActions(id)).at(-1), 'bulletin.revision.restore by admin-token');
  });

  test('restoring from a version someone has saved past is refused with the current state', async () => {
    const id = await create({ title: '甲' });
    await admin('PUT', `/bulletins/${id}`, { title: '乙', version: 1 });
    const oldest = (await revisions(id)).at(-1);
    const stale = await admin('POST', `/bulletins/${id}/revisions/${oldest?.id}/restore`, { version: 1 });
    assert.equal(stale.statusCode, 409);
    assert.equal(checked(VersionConflict, stale).current.title, '乙');
    const byHeader = await admin('POST', `/bulletins/${id}/revisions/${oldest?.id}/restore`, {}, { 'if-match': '"1"' });
    assert.equal(byHeader.statusCode, 409);
    assert.equal((await revisions(id)).length, 2, 'nothing was written');
    const other = await create({ title: '别的公告' });
    const elsewhere = await admin('POST', `/bulletins/${other}/revisions/${oldest?.id}/restore`, {});
    assert.equal(elsewhere.statusCode, 404, 'a revision of another announcement');
  });
});

describe('the trash', () => {
  test('lists what was deleted, restores it long after the undo notice, and purges early', async () => {
    const kept = await create({ title: '回收站里恢复' });
    const purged = await create({ title: '回收站里彻底删除' });
    await admin('PUT', `/bulletins/${purged}`, { title: '回收站里彻底删除 2', version: 1 });
    for (const id of [kept, purged]) assert.equal((await admin('DELETE', `/bulletins/${id}`)).statusCode, 204);
    // Deleted a week ago: well past the notice's 撤销, well within 30 days.
    const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString();
    await t.db.kysely.updateTable('bulletins').set({ deleted_at: weekAgo }).where('id', '=', kept).execute();
    const trash = checked(TrashPage, await admin('GET', '/bulletins/trash'));
    assert.deepEqual(
      trash.list.map((item) => item.id).filter((id) => id === kept || id === purged),
      [purged, kept],
      'most recently deleted first',
    );
    const item = trash.list.find((entry) => entry.id === kept);
    assert.equal(Date.parse(`${item?.purge_at}Z`) - Date.parse(`${item?.deleted_at}Z`), 30 * 86_400_000);
    assert.equal((await admin('GET', `/bulletins/${kept}/revisions`)).statusCode, 404, 'not while in the trash');

    assert.equal((await admin('POST', `/bulletins/${kept}/restore`)).statusCode, 200);
    assert.equal((await t.app.inject(`/v1/bulletin/detail?id=${kept}`)).statusCode, 200);
    assert.equal((await revisions(kept)).length, 1, 'its revisions come back with it');

    assert.equal((await admin('DELETE', `/bulletins/trash/${kept}`)).statusCode, 404, 'only from the trash');
    assert.equal((await admin('DELETE', `/bulletins/trash/${purged}`)).statusCode, 204);
    assert.equal(await exists('bulletins', 'id', purged), false);
    assert.equal(await exists('bulletin_revisions', 'bulletin_id', purged), false, 'its revisions go with it');
    assert.equal((await admin('POST', `/bulletins/${purged}/restore`)).statusCode, 404);
    assert.equal((await admin('DELETE', `/bulletins/trash/${purged}`)).statusCode, 404);
    const trashed = checked(TrashPage, await admin('GET', '/bulletins/trash')).list;
    assert.ok(!trashed.some((entry) => entry.id === kept || entry.id === purged));
    assert.deepEqual((await auditActions(kept)).slice(-2), [
      'bulletin.remove by admin-token',
      'bulletin.restore by admin-token',
    ]);
    assert.deepEqual((await auditActions(purged)).at(-1), 'bulletin.purge by admin-token');
  });

  test('a server empties it by itself after 30 days, with nobody signed in', async () => {
    const old = await create({ title: '31 天前删除' });
    const recent = await create({ title: '29 天前删除' });
    for (const id of [old, recent]) await admin('DELETE', `/bulletins/${id}`);
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    await t.db.kysely
      .updateTable('bulletins')
      .set({ deleted_at: daysAgo(31) })
      .where('id', '=', old)
      .execute();
    await t.db.kysely
      .updateTable('bulletins')
      .set({ deleted_at: daysAgo(29) })
      .where('id', '=', recent)
      .execute();
    // A server starting on this database sweeps at its first schedule check; no request is made.
    const other = connect(t.config.database);
    const second = await buildApp({ config: t.config, db: other });
    try {
      while (await exists('bulletins', 'id', old)) await new Promise((resolve) => setImmediate(resolve));
    } finally {
      await second.close();
      await other.close();
    }
    assert.equal(await exists('bulletin_revisions', 'bulletin_id', old), false);
    assert.equal(await exists('bulletins', 'id', recent), true, 'still within its 30 days');
    assert.deepEqual((await auditActions(old)).at(-1), 'bulletin.purge by schedule');
  });
});
