/** The console says every refusal of the admin API in its own Chinese, from the refusal's code
 * and field (docs/admin-api.md#error-codes), at phone and desktop widths: a wrong current password,
 * a bad API address named by its line, a picture over the size limit in KB. Never the server's
 * English, never a developer's path. */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { axeViolations } from './support/axe.js';
import { signIn, startConsoleSite } from './support/console.js';
import { openPage } from './support/page-helpers.js';
import type { RunningServer } from './support/server.js';
import { stopServerAndBrowser } from './support/per-file.js';
import { shot } from './support/shots.js';

let server: RunningServer;
let browser: Browser;
before(async () => {
  ({ server, browser } = await startConsoleSite([['alice', 'admin', 'alice-password-1']], {
    UPLOAD_MAX_BYTES: '4096',
  }));
});
after(() => stopServerAndBrowser(server, browser));

/** A PNG of noise, far over 4 KB whatever the compression. */
function bigPicture(): string {
  const png = new PNG({ width: 64, height: 64 });
  for (let i = 0; i < png.data.length; i++) png.data[i] = (i * 7919 + (i >> 3) * 104_729) % 251;
  const path = join(mkdtempSync(join(tmpdir(), 'console-messages-')), 'big.png');
  writeFileSync(path, PNG.sync.write(png));
  return path;
}

/** Where the screenshots go that a person looks at (.tmp is not committed). */
const shotAs = (page: Page, name: string) => shot(page, join('.tmp', 'console-messages', `${name}.png`));

for (const viewport of ['phone', 'desktop'] as const) {
  describe(`refusals in Chinese (${viewport})`, () => {
    async function signedIn(t: { after: (fn: () => Promise<void>) => void }, dark = false) {
      const open = await openPage(browser, viewport, { prerendered: true });
      t.after(() => open.close());
      if (dark) await open.page.emulateMedia({ colorScheme: 'dark' });
      await signIn(open.page, server, 'alice', 'alice-password-1');
      open.problems.length = 0;
      return open;
    }

    test('a wrong current password', async (t) => {
      const { page } = await signedIn(t);
      await page.goto(`${server.url}/admin/account`);
      await page.getByLabel('当前密码', { exact: true }).fill('not-my-password');
      await page.getByLabel('新密码', { exact: true }).fill('a-new-password-1');
      await page.getByLabel('再次输入新密码').fill('a-new-password-1');
      await page.getByRole('button', { name: '修改密码' }).click();
      await page.getByText('修改失败：当前密码不正确', { exact: true }).waitFor();
      assert.equal(await page.getByText(/password|wrong/i).count(), 0);
      assert.deepEqual(await axeViolations(page), []);
      await shotAs(page, `password-${viewport}-light`);
    });

    test('a bad API address, named by its line', async (t) => {
      const { page } = await signedIn(t, true);
      await page.goto(`${server.url}/admin/settings`);
      await page.getByLabel('API 地址（每行一个）').fill('https://a.example.com\nftp://b.example.com');
      await page.getByRole('button', { name: '保存区域文件' }).click();
      await page.getByText('保存失败：API 地址第 2 行填写有误，请检查后重试', { exact: true }).waitFor();
      await shotAs(page, `region-line-${viewport}-dark`);
      await page.getByLabel('API 地址（每行一个）').fill('');
      await page.getByRole('button', { name: '保存区域文件' }).click();
      await page.getByText('保存失败：API 地址至少要有 1 项', { exact: true }).waitFor();
      assert.equal(await page.getByText(/body\/|api_addrs/).count(), 0);
      assert.deepEqual(await axeViolations(page), []);
      await shotAs(page, `region-${viewport}-dark`);
    });

    test('a picture over the size limit, in KB', async (t) => {
      const { page } = await signedIn(t, viewport === 'phone');
      await page.goto(`${server.url}/admin/bulletins/new`);
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: '图片（插入）' }).click();
      await (await chooser).setFiles(bigPicture());
      const alert = page.getByRole('list', { name: '图片上传' }).getByRole('alert');
      await alert.getByText(/^文件太大了（[\d.]+ KB），上限为 4 KB$/).waitFor();
      assert.deepEqual(await axeViolations(page), []);
      await shotAs(page, `picture-${viewport}-${viewport === 'phone' ? 'dark' : 'light'}`);
    });
  });
}
