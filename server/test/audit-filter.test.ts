/**
 * The audit log's filters through the admin API (docs/console.md#the-audit-log): who, action, a
 * range of days in the server's time zone and words in the record. On SQLite, and on PostgreSQL
 * with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AuditPage } from '@chat-site/contract/admin';
import { recordAudit } from '../src/accounts/repository.js';
import { toWireTime } from '../src/lib/time.js';
import { bearer, startTestApp, type TestApp } from './helpers.js';
import { checked } from './checked.js';

let t: TestApp;
before(async () => {
  t = await startTestApp({ env: { TIME_ZONE: 'Asia/Shanghai' } });
  await recordAudit(t.db.kysely, {
    actor: 'alice',
    action: 'bulletin.create',
    target: '1',
    after: { title: 'Spring 维护通知' },
  });
  await recordAudit(t.db.kysely, {
    actor: 'bob',
    action: 'bulletin.update',
    target: '1',
    after: { title: '100%_done' },
  });
  await recordAudit(t.db.kysely, { actor: 'bob', action: 'region.set', target: 'region', after: { api_addrs: [] } });
});
after(() => t.close());

const actions = async (query: Record<string, string>) => {
  const res = await t.app.inject({ url: `/v1/admin/audit?${new URLSearchParams(query)}`, headers: bearer });
  assert.equal(res.statusCode, 200, res.body);
  const { count, list } = checked(AuditPage, res);
  assert.equal(count, list.length);
  return list.map((entry) => entry.action);
};

test('by who, by action, and both', async () => {
  assert.deepEqual(await actions({ who: 'bob' }), ['region.set', 'bulletin.update']);
  assert.deepEqual(await actions({ action: 'bulletin.create' }), ['bulletin.create']);
  assert.deepEqual(await actions({ who: 'bob', action: 'region.set' }), ['region.set']);
});

test('by words in the record, in any case; % and _ are plain characters', async () => {
  assert.deepEqual(await actions({ q: 'spring' }), ['bulletin.create']);
  assert.deepEqual(await actions({ q: '维护' }), ['bulletin.create']);
  assert.deepEqual(await actions({ q: '0%_' }), ['bulletin.update']);
  assert.deepEqual(await actions({ q: '%' }), ['bulletin.update']);
});

test("by a range of days in the server's time zone, both ends included", async () => {
  const today = toWireTime(new Date(), 'Asia/Shanghai').slice(0, 10);
  assert.equal((await actions({ from: today, to: today })).length, 3);
  assert.deepEqual(await actions({ to: '2000-01-01' }), []);
  assert.deepEqual(await actions({ from: '2999-01-01' }), []);
  const bad = await t.app.inject({ url: '/v1/admin/audit?from=yesterday', headers: bearer });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json<{ field: string }>().field, 'from');
});
