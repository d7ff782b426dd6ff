/**
 * Visits from the chat apps' built-in browsers and the guides shown there
 * (docs/site.md#in-app-browsers): counted on a real database from `/dl/{os}` and the site's
 * beacon, shown by the numbers call, never more than one row per day and app.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DownloadStats } from '@chat-site/contract/admin';
import { toWireTime } from '../src/lib/time.js';
import { inAppAgents, ordinaryAgents } from '../../packages/contract/test/in-app-user-agents.js';
import { checked } from './checked.js';
import { bearer, startTestApp, type TestApp } from './helpers.js';

const zone = 'Asia/Shanghai';
const today = () => toWireTime(new Date(), zone).slice(0, 10);
const agentOf = (name: string) => inAppAgents.find((agent) => agent.name === name)?.userAgent ?? '';
const weChat = agentOf('WeChat 8.0 on Android (XWEB)');
const chrome = ordinaryAgents['Chrome on Android'] ?? '';

let t: TestApp;
before(async () => {
  t = await startTestApp({ demo: true, env: { TIME_ZONE: zone } });
});
after(() => t.close());

const beacon = (event: string, userAgent: string) =>
  t.app.inject({ method: 'POST', url: `/dl/in-app/${event}`, headers: { 'user-agent': userAgent } });
const rows = () => t.db.kysely.selectFrom('in_app_counts').selectAll().where('day', '=', today()).execute();
const stats = async () =>
  checked(DownloadStats, await t.app.inject({ url: '/v1/admin/stats/downloads?days=7', headers: bearer }));

describe('in-app browser counts', () => {
  test('/dl from WeChat is an in-app visit and a guide shown, not a download; from Chrome only a download', async () => {
    assert.equal((await t.app.inject({ url: '/dl/android', headers: { 'user-agent': weChat } })).statusCode, 200);
    assert.equal((await t.app.inject({ url: '/dl/android', headers: { 'user-agent': chrome } })).statusCode, 302);
    const body = await stats();
    assert.equal(body.days.at(-1)?.android, 1);
    assert.deepEqual(body.in_app.days.at(-1), { visits: 1, guides: 1 });
  });

  test("the beacon counts the app its own user agent names; another browser's counts nothing", async () => {
    for (const event of ['visit', 'guide', 'guide']) assert.equal((await beacon(event, weChat)).statusCode, 204);
    assert.equal((await beacon('guide', chrome)).statusCode, 204);
    assert.equal((await beacon('guide', agentOf('Douyin on iOS'))).statusCode, 204);
    const body = await stats();
    assert.deepEqual(body.in_app.total, { visits: 2, guides: 4 });
    assert.equal(body.in_app.days.length, 7);
    const found = (await rows()).map((row) => [row.app, Number(row.visits), Number(row.guides)]).sort();
    assert.deepEqual(found, [
      ['douyin', 0, 1],
      ['wechat', 2, 3],
    ]);
  });

  test('only the two events; however many beacons arrive, one row per app and day', async () => {
    for (const event of ['share', 'GUIDE', '', 'guide/x'])
      assert.notEqual((await beacon(event, weChat)).statusCode, 204);
    await Promise.all(
      inAppAgents.flatMap(({ userAgent }) => Array.from({ length: 20 }, () => beacon('guide', userAgent))),
    );
    const found = await rows();
    assert.equal(found.length, 7);
    assert.equal(found.find((row) => row.app === 'qq')?.guides, 40);
  });

  test('the CSV export ends each day with its in-app visits and guides', async () => {
    const res = await t.app.inject({ url: '/v1/admin/stats/downloads?days=7&format=csv', headers: bearer });
    const lines = res.body.trimEnd().split('\r\n');
    assert.match(lines[0] ?? '', /,total,in_app_visits,in_app_guides$/);
    const body = await stats();
    const { visits, guides } = body.in_app.total;
    assert.match(lines.at(-1) ?? '', new RegExp(`^${today()},.*,${visits},${guides}$`));
  });
});
