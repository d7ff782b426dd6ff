/**
 * Announcements for operators: drafts that stay off the site, publication at a time to come on
 * every server without a write or a restart, optimistic concurrency, deletion that can be
 * undone, and the console's list. On SQLite, and on PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BulletinPage } from '@chat-site/contract';
import { AdminBulletin, AdminBulletinPage, VersionConflict } from '@chat-site/contract/admin';
import { buildApp } from '../src/app.js';
import { connect } from '../src/db/connect.js';
import { toWireTime } from '../src/lib/time.js';
import { readUntil, startTestApp, type TestApp } from './helpers.js';
import { checked } from './checked.js';
import { adminCalls } from './admin-calls.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const { admin, createBulletin: create } = adminCalls(() => t.app);

/** Where announcement `id` can be seen by a visitor of `app`, of the five public places. */
async function seenAt(id: number, app = t.app): Promise<string[]> {
  const places: string[] = [];
  const page = (await app.inject('/v1/bulletin/page?page_size=100')).json<BulletinPage>();
  if (page.list.some((item) => item.id === id)) places.push('page');
  if ((await app.inject(`/v1/bulletin/detail?id=${id}`)).statusCode === 200) places.push('detail');
  if ((await app.inject('/feed.atom')).body.includes(`/a/${id}<`)) places.push('feed');
  if ((await app.inject('/sitemap.xml')).body.includes(`/a/${id}<`)) places.push('sitemap');
  if ((await app.inject(`/a/${id}`)).statusCode === 200) places.push('share');
  return places;
}

const everywhere = ['page', 'detail', 'feed', 'sitemap', 'share'];
const wire = (ms: number) => toWireTime(new Date(Date.now() + ms).toISOString(), t.config.timeZone);

describe('drafts', () => {
  test('a draft is never public, even with a warm cache; publishing it shows it at once', async () => {
    await seenAt(0); // every public answer is now cached
    const id = await create({ title: '草稿', state: 'draft' });
    assert.deepEqual(await seenAt(id), []);
    const listed = checked(AdminBulletinPage, await admin('GET', '/bulletins?filter=draft')).list;
    assert.equal(listed.find((item) => item.id === id)?.status, 'draft');
    const published = await admin('PUT', `/bulletins/${id}`, { state: 'published' });
    assert.equal(checked(AdminBulletin, published).status, 'published');
    assert.deepEqual(await seenAt(id), everywhere);
  });
});

describe('scheduled publication', () => {
  test('appears at its time on every server, with no write and no restart, and not before', async () => {
    // A second server on the same database, with its own cache.
    const other = connect(t.config.database);
    const second = await buildApp({ config: t.config, db: other });
    try {
      // "Not before" proves something only if it was looked at before the time came (the wire time
      // has whole seconds, so up to a second early): on a busy machine, try again further ahead.
      let id = 0;
      for (let lead = 2500; ; lead *= 2) {
        const due = Date.now() + lead - 1000;
        id = await create({ title: '定时', publish_at: wire(lead) });
        const view = checked(AdminBulletin, await admin('GET', `/bulletins/${id}`));
        assert.equal(view.status, 'scheduled');
        const early = [await seenAt(id, t.app), await seenAt(id, second)];
        if (Date.now() < due) {
          assert.deepEqual(early, [[], []], 'not before its time');
          break;
        }
        assert.ok(lead < 40_000, 'the machine never let the reads come before the time');
      }
      // Each server's schedule check finds the time passed (within a second) and drops its cached
      // answers: that change is what the reads wait for, not a length of time.
      for (const app of [t.app, second]) {
        const seen = await readUntil(
          app,
          () => seenAt(id, app),
          (places) => places.length === everywhere.length,
        );
        assert.deepEqual(seen, everywhere, 'at its time');
      }
      const page = (await t.app.inject('/v1/bulletin/page')).json<BulletinPage>();
      assert.equal(page.list[0]?.id, id, 'shown with its publication time, newest first');
    } finally {
      await second.close();
      await other.close();
    }
  });

  test('a publication time that is no real time is refused', async () => {
    const res = await admin('POST', '/bulletins', { title: 'x', content: '', publish_at: '2026-02-30 10:00:00' });
    assert.equal(res.statusCode, 400);
    assert.match(res.json<{ msg: string }>().msg, /publish_at/);
  });
});

describe('two operators editing one announcement', () => {
  test('the second save of the same version is refused with the current state; If-Match works too', async () => {
    const id = await create({ title: '版本' });
    const opened = await admin('GET', `/bulletins/${id}`);
    const { version } = checked(AdminBulletin, opened);
    assert.equal(opened.headers.etag, `"${version}"`);
    const first = await admin('PUT', `/bulletins/${id}`, { title: '甲的标题', version });
    assert.equal(first.statusCode, 200);
    assert.equal(checked(AdminBulletin, first).version, version + 1);
    const second = await admin('PUT', `/bulletins/${id}`, { title: '乙的标题', version });
    assert.equal(second.statusCode, 409);
    const conflict = checked(VersionConflict, second);
    assert.equal(conflict.current.title, '甲的标题');
    assert.match(conflict.msg, /someone saved this announcement/);
    const byHeader = await admin('PUT', `/bulletins/${id}`, { title: '乙的标题' }, { 'if-match': `"${version}"` });
    assert.equal(byHeader.statusCode, 409);
    const fresh = await admin('PUT', `/bulletins/${id}`, { title: '乙的标题' }, { 'if-match': `"${version + 1}"` });
    assert.equal(fresh.statusCode, 200);
    assert.equal((await t.app.inject(`/v1/bulletin/detail?id=${id}`)).json<{ Title: string }>().Title, '乙的标题');
    const bad = await admin('PUT', `/bulletins/${id}`, { title: 'x' }, { 'if-match': 'yesterday' });
    assert.equal(bad.statusCode, 400);
  });
});

describe('deleting', () => {
  test('a deleted announcement leaves the site and comes back when undone, for a while', async () => {
    const id = await create({ title: '删了又回来', topup: 1 });
    assert.equal((await admin('DELETE', `/bulletins/${id}`)).statusCode, 204);
    assert.deepEqual(await seenAt(id), []);
    assert.equal((await admin('GET', `/bulletins/${id}`)).statusCode, 404);
    const restored = await admin('POST', `/bulletins/${id}/restore`);
    assert.equal(restored.statusCode, 200);
    assert.equal(checked(AdminBulletin, restored).topup, 1);
    assert.deepEqual(await seenAt(id), everywhere);
    assert.equal((await admin('POST', `/bulletins/${id}/restore`)).statusCode, 404, 'nothing to undo');

    assert.equal((await admin('DELETE', `/bulletins/${id}`)).statusCode, 204);
    const longAgo = new Date(Date.now() - 31 * 86_400_000).toISOString();
    await t.db.kysely.updateTable('bulletins').set({ deleted_at: longAgo }).where('id', '=', id).execute();
    assert.equal((await admin('POST', `/bulletins/${id}/restore`)).statusCode, 404, 'too late after 30 days');
  });
});

describe('the console’s list', () => {
  test('searches titles, filters by status, pages, newest first', async () => {
    const ids = {
      pinned: await create({ title: 'LIST 置顶 100%', topup: 1 }),
      plain: await create({ title: 'list 普通' }),
      draft: await create({ title: 'List 草稿', state: 'draft' }),
      scheduled: await create({ title: 'list 明天', publish_at: wire(86_400_000) }),
    };
    const list = async (query: string) => checked(AdminBulletinPage, await admin('GET', `/bulletins?${query}`));
    const all = await list('q=list');
    assert.equal(all.count, 4);
    assert.deepEqual(
      all.list.map((item) => item.id),
      [ids.scheduled, ids.draft, ids.plain, ids.pinned],
    );
    assert.deepEqual(
      (await list('q=list&filter=pinned')).list.map((item) => item.id),
      [ids.pinned],
    );
    assert.deepEqual(
      (await list('q=list&filter=draft')).list.map((item) => item.id),
      [ids.draft],
    );
    assert.deepEqual(
      (await list('q=list&filter=scheduled')).list.map((item) => item.id),
      [ids.scheduled],
    );
    assert.deepEqual(
      (await list('q=list&filter=published')).list.map((item) => item.id),
      [ids.plain, ids.pinned],
    );
    assert.deepEqual(
      (await list('q=100%25')).list.map((item) => item.id),
      [ids.pinned],
      '% is a character',
    );
    assert.deepEqual((await list('q=_')).list, [], '_ is a character');
    const paged = await list('q=list&page_size=3&page_index=2');
    assert.equal(paged.count, 4);
    assert.deepEqual(
      paged.list.map((item) => item.id),
      [ids.pinned],
    );
    assert.equal((await admin('GET', '/bulletins?filter=everything')).statusCode, 400);
  });
});
