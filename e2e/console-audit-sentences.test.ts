/** The audit log's sentences for what an operator does most (docs/console.md#the-audit-log):
 * publishing, scheduling and taking back read as such, a restored revision by its version, a
 * long title cut, and each entry a link to what it is about. Chromium against the built server,
 * axe 0, at phone and desktop widths in both themes. */
import assert from 'node:assert/strict';
import { anyWallClock } from '@chat-site/contract';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { adminApi } from './support/admin-api.js';
import { axeViolations } from './support/axe.js';
import { launchBrowser } from './support/browser.js';
import { addOperator, signedInConsole } from './support/console.js';
import { shootBothThemes } from './support/shots.js';
import { startServer, type RunningServer } from './support/server.js';

let server: RunningServer;
let browser: Browser;
let id: number;
const long = `关于${'二〇二六年春节期间客服与提现安排'.repeat(4)}的说明`;
const later = anyWallClock(Date.now() + 2 * 86_400_000, 'Asia/Shanghai');

before(async () => {
  server = await startServer();
  addOperator(server, 'alice', 'admin', 'alice-password-1');
  ({ id } = await adminApi<{ id: number }>(server, 'POST', '/bulletins', {
    title: long,
    content: '<p>初稿</p>',
    state: 'draft',
  }));
  let version = 1;
  const save = async (body: Record<string, unknown>) => {
    ({ version } = await adminApi<{ version: number }>(server, 'PUT', `/bulletins/${id}`, { ...body, version }));
  };
  await save({ state: 'published', publish_at: null });
  await save({ state: 'draft' });
  await save({ state: 'published', publish_at: later, content: '<p>改过</p>' });
  const revisions = await adminApi<{ list: { id: number; version: number }[] }>(
    server,
    'GET',
    `/bulletins/${id}/revisions`,
  );
  const first = revisions.list.find((revision) => revision.version === 1);
  assert.ok(first !== undefined);
  await adminApi(server, 'POST', `/bulletins/${id}/revisions/${first.id}/restore`, { version });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the audit log says what happened', () => {
  test('publish, schedule, take back and restore, by name and version, each a link', async (t) => {
    const open = await signedInConsole(t, browser, server, 'alice', 'alice-password-1');
    const { page } = open;
    await page.goto(`${server.url}/admin/audit`);
    const log = page.getByRole('list', { name: '操作记录' });
    const shown = `公告《${[...long].slice(0, 24).join('')}…》`;
    await log.getByText(`把${shown}恢复到了第 1 版：改了正文、状态、发布时间`).waitFor();
    await log.getByText(`定时发布${shown}，定于 ${later.slice(0, 16)}，并改了正文`).waitFor();
    await log.getByText(`把${shown}撤回为草稿`).waitFor();
    await log.getByText(`发布了${shown}`, { exact: false }).first().waitFor();
    const sentences = await log.getByRole('listitem').locator('p.text-sm').allInnerTexts();
    assert.ok(!sentences.some((sentence) => sentence.includes('restored_from')), 'no internal names');
    assert.ok(!sentences.some((sentence) => sentence.includes('修改了')), sentences.join('\n'));
    // Cut titles keep each entry to a line or two on a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    const heights = await log
      .getByRole('listitem')
      .locator('p.text-sm')
      .evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().height));
    const line = 20;
    assert.ok(Math.max(...heights) <= 3 * line, `at most three lines at 390 px: ${heights.join(', ')}`);
    assert.deepEqual(await axeViolations(page), []);
    await shootBothThemes(page, 'console-audit-sentences', 'log');

    await log.getByRole('listitem').first().getByRole('link', { name: '打开公告' }).click();
    await page.waitForURL(`**/admin/bulletins/${id}`);
    await page.getByRole('heading', { name: '编辑公告' }).waitFor();
    assert.deepEqual(open.problems, []);
  });
});
