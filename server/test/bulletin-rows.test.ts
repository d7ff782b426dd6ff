/**
 * The console's row actions and search, and announcements that stop by themselves: a copy as a
 * new draft, search in the body's text (never its markup), and unpublish/unpin times that the
 * schedule check carries out with no request, seen by every server. On SQLite, and on
 * PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BulletinPage } from '@chat-site/contract';
import { AdminBulletin, AdminBulletinPage } from '@chat-site/contract/admin';
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
const read = async (id: number) => checked(AdminBulletin, await admin('GET', `/bulletins/${id}`));
const wire = (ms: number) => toWireTime(new Date(Date.now() + ms).toISOString(), t.config.timeZone);

const publicPage = async (app = t.app) =>
  (await app.inject('/v1/bulletin/page?page_size=100')).json<BulletinPage>().list;

/** Another server on the same database whose schedule check runs `ahead` ms in the future. */
async function serverAhead(ahead: number) {
  const db = connect(t.config.database);
  const app = await buildApp({ config: t.config, db, clock: () => new Date(Date.now() + ahead) });
  return { app, close: async () => (await app.close(), await db.close()) };
}

describe('duplicating', () => {
  test('makes a draft copy with a marked title, the same body, nothing public', async () => {
    const id = await create({ title: '春节安排', content: '<p>放假<b>七天</b></p>', topup: 1 });
    const res = await admin('POST', `/bulletins/${id}/duplicate`);
    assert.equal(res.statusCode, 201, res.body);
    const copy = await read(res.json<{ id: number }>().id);
    assert.equal(copy.title, '春节安排（副本）');
    assert.equal(copy.content, '<p>放假<b>七天</b></p>');
    assert.equal(copy.status, 'draft');
    assert.equal(
      (await publicPage()).some((item) => item.id === copy.id),
      false,
    );
    const long = await create({ title: '长'.repeat(200) });
    const longCopy = await read((await admin('POST', `/bulletins/${long}/duplicate`)).json<{ id: number }>().id);
    assert.equal([...longCopy.title].length, 200, 'the marked title keeps within the limit');
    assert.equal((await admin('POST', '/bulletins/999999/duplicate')).statusCode, 404);
  });
});

describe('searching', () => {
  test('finds words in the body text, across inline tags and entities, never in the markup', async () => {
    const id = await create({
      title: '通知',
      content:
        '<p>端午<a href="https://holiday.example/plan">放假</a>安排 Tom &amp; Jerry</p><img src="file/preview/k" alt="">',
    });
    const found = async (q: string) =>
      checked(AdminBulletinPage, await admin('GET', `/bulletins?q=${encodeURIComponent(q)}`)).list.some(
        (item) => item.id === id,
      );
    assert.equal(await found('放假安排'), true, 'text across an inline tag');
    assert.equal(await found('端午放假'), true);
    assert.equal(await found('tom & jerry'), true, 'an entity is its character');
    for (const markup of ['holiday', 'href', 'amp;', 'preview', '<p>', 'img']) {
      assert.equal(await found(markup), false, `${markup} is markup`);
    }
    await admin('PUT', `/bulletins/${id}`, { content: '<p>中秋团圆</p>' });
    assert.equal(await found('中秋'), true, 'a saved body is searched as saved');
    assert.equal(await found('端午'), false);
  });
});

describe('end times', () => {
  test('are refused unless later than now and than the publication', async () => {
    const past = await admin('POST', '/bulletins', { title: 'x', content: '', unpublish_at: wire(-60_000) });
    assert.equal(past.statusCode, 400);
    assert.match(past.json<{ msg: string }>().msg, /unpublish_at/);
    const beforePublishing = await admin('POST', '/bulletins', {
      title: 'x',
      content: '',
      publish_at: wire(7_200_000),
      unpin_at: wire(3_600_000),
    });
    assert.equal(beforePublishing.statusCode, 400);
    assert.match(beforePublishing.json<{ msg: string }>().msg, /unpin_at.*publication/);
    const bad = await admin('POST', '/bulletins', { title: 'x', content: '', unpin_at: '2026-02-30 10:00:00' });
    assert.equal(bad.statusCode, 400);
  });

  test('unpublish and unpin at their time with no request, on every server, with audit entries', async () => {
    const gone = await create({ title: '限时公告', unpublish_at: wire(60_000) });
    const unpinned = await create({ title: '限时置顶', topup: 1, unpin_at: wire(60_000) });
    const later = await create({ title: '以后才下线', unpublish_at: wire(3_600_000) });
    assert.match((await read(gone)).unpublish_at ?? '', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const before = await publicPage(); // warm the cache of the server that serves visitors
    assert.ok(before.some((item) => item.id === gone));
    assert.equal(before.find((item) => item.id === unpinned)?.topup, 1);

    const ahead = await serverAhead(120_000);
    try {
      await ahead.app.schedule.check();
    } finally {
      await ahead.close();
    }
    // PostgreSQL tells this server by NOTIFY, which arrives a moment after the commit.
    const after = await readUntil(
      t.app,
      () => publicPage(),
      (page) => !page.some((item) => item.id === gone),
    );
    assert.equal(
      after.some((item) => item.id === gone),
      false,
      'gone from the site',
    );
    assert.equal(after.find((item) => item.id === unpinned)?.topup, 0, 'no longer pinned');
    assert.ok(
      after.some((item) => item.id === later),
      'a later end time has not come',
    );
    const goneView = await read(gone);
    assert.equal(goneView.status, 'draft', 'back among the drafts');
    assert.equal(goneView.unpublish_at, null);
    assert.equal((await read(unpinned)).unpin_at, null);
    const entries = await t.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'target', 'actor'])
      .where('actor', '=', 'scheduler')
      .orderBy('id')
      .execute();
    assert.deepEqual(entries, [
      { action: 'bulletin.unpublish', target: String(gone), actor: 'scheduler' },
      { action: 'bulletin.unpin', target: String(unpinned), actor: 'scheduler' },
    ]);
  });

  test('a manual unpin or draft clears the end time it would have carried out', async () => {
    const id = await create({ title: '手动', topup: 1, unpin_at: wire(60_000), unpublish_at: wire(90_000) });
    const saved = checked(AdminBulletin, await admin('PUT', `/bulletins/${id}`, { topup: 0, state: 'draft' }));
    assert.equal(saved.unpin_at, null);
    assert.equal(saved.unpublish_at, null);
    const cleared = checked(AdminBulletin, await admin('PUT', `/bulletins/${id}`, { unpublish_at: null }));
    assert.equal(cleared.unpublish_at, null);
  });
});
