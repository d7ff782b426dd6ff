/** The audit log as sentences, with its filters in the address (docs/console.md#the-audit-log):
 * a reload and back/forward keep them, at phone and desktop widths, axe 0. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { axeViolations } from './support/axe.js';
import { signIn, startConsoleSite } from './support/console.js';
import { openPage } from './support/page-helpers.js';
import { adminApi } from './support/admin-api.js';
import type { RunningServer } from './support/server.js';
import { stopServerAndBrowser } from './support/per-file.js';
import { shot } from './support/shots.js';

let server: RunningServer;
let browser: Browser;
before(async () => {
  ({ server, browser } = await startConsoleSite([['alice', 'admin', 'alice-password-1']]));
  for (const title of ['服务器维护通知', '新年活动']) {
    await adminApi(server, 'POST', '/bulletins', { title, content: '<p>内容</p>' });
  }
  const region = { api_addrs: [{ addr: 'https://api.example.com' }], allocator_addrs: [] };
  await adminApi(server, 'PUT', '/region', region);
});
after(() => stopServerAndBrowser(server, browser));

for (const viewport of ['phone', 'desktop'] as const) {
  describe(`the audit log (${viewport})`, () => {
    test('sentences; filters survive a reload and back/forward', async (t) => {
      const open = await openPage(browser, viewport, { prerendered: true });
      t.after(() => open.close());
      const { page } = open;
      await signIn(page, server, 'alice', 'alice-password-1');
      // The sign-in screen's own question, whether anyone is signed in, is answered 401.
      open.problems.length = 0;
      await page.goto(`${server.url}/admin/audit`);
      const log = page.getByRole('list', { name: '操作记录' });
      await log.getByText('新建了公告《服务器维护通知》').waitFor();
      await log.getByText('修改了区域文件：改了API 地址、分配器地址').waitFor();
      assert.deepEqual(await axeViolations(page), []);
      // The console picks its theme when it loads: each scheme is shot after a reload.
      for (const scheme of ['dark', 'light'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.reload();
        await log.getByText('新建了公告《服务器维护通知》').waitFor();
        await shot(page, join('.tmp', 'console-messages', `audit-${viewport}-${scheme}.png`));
      }

      await page.getByLabel('操作', { exact: true }).selectOption({ label: '新建公告' });
      await page.getByLabel('关键词').fill('维护');
      await page.getByRole('button', { name: '筛选' }).click();
      await page.waitForURL(/[?&]action=bulletin\.create/);
      await log.getByText('新建了公告《新年活动》').waitFor({ state: 'detached' });
      assert.equal(await log.getByRole('listitem').count(), 1);

      await page.reload();
      await log.getByText('新建了公告《服务器维护通知》').waitFor();
      assert.equal(await log.getByRole('listitem').count(), 1);
      assert.equal(await page.getByLabel('关键词').inputValue(), '维护');
      assert.equal(await page.getByLabel('操作', { exact: true }).inputValue(), 'bulletin.create');
      assert.deepEqual(await axeViolations(page), []);

      await page.goBack();
      await log.getByText('修改了区域文件：改了API 地址、分配器地址').waitFor();
      assert.equal(await page.getByLabel('关键词').inputValue(), '');
      await page.goForward();
      await log.getByText('修改了区域文件：改了API 地址、分配器地址').waitFor({ state: 'detached' });
      assert.equal(await page.getByLabel('关键词').inputValue(), '维护');
      assert.deepEqual(open.problems, []);
    });
  });
}
