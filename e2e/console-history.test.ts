/** An announcement's 历史版本 and the 回收站 in the console, in Chromium against the real built
 * server, at phone and desktop widths (docs/console.md#revisions, docs/console.md#trash): a
 * revision compared and restored through the dialog, a deleted announcement restored from the
 * trash after its notice is gone, and one purged early. Screenshots of each screen and dialog,
 * light and dark, go to .tmp/screenshots/console-history. */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from './support/axe.js';
import { contextOptions } from './support/browser.js';
import { signIn, startConsoleSite } from './support/console.js';
import { adminApi } from './support/admin-api.js';
import { repoRoot, type RunningServer } from './support/server.js';
import { stopServerAndBrowser } from './support/per-file.js';
import { shot } from './support/shots.js';

const shots = join(repoRoot, '.tmp/screenshots/console-history');
const widths = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 860 } } as const;
type Width = keyof typeof widths;

let server: RunningServer;
let browser: Browser;
before(async () => {
  mkdirSync(shots, { recursive: true });
  ({ server, browser } = await startConsoleSite([['alice', 'editor', 'alice-password-1']]));
});
after(() => stopServerAndBrowser(server, browser));

const api = <T>(method: string, path: string, body?: object) => adminApi<T>(server, method, path, body);

async function signedIn(t: TestContext, width: Width): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext(contextOptions(width, { viewport: widths[width] }));
  t.after(() => context.close());
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 401/.test(message.text())) errors.push(message.text());
  });
  await signIn(page, server, 'alice', 'alice-password-1');
  return { page, errors };
}

/** The page as it is, in the light theme and in the dark one; both checked by axe. */
async function shoot(page: Page, name: string, width: Width): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((dark) => {
      document.documentElement.classList.toggle('dark', dark);
      document.documentElement.classList.toggle('light', !dark);
      document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
    }, theme === 'dark');
    // Colours ease between themes (buttons have a transition): measure them once they settle.
    await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
    assert.deepEqual(await axeViolations(page), [], `${name}, ${width}, ${theme}`);
    await shot(page, join(shots, `${name}-${width}-${theme}.png`));
  }
}

const notice = (page: Page, text: string | RegExp) => page.getByRole('region', { name: /通知/ }).getByText(text);

describe('the console: revisions and the trash', () => {
  for (const width of ['phone', 'desktop'] as const) {
    test(`a revision is compared and restored through 历史版本 (${width})`, async (t) => {
      const { id } = await api<{ id: number }>('POST', '/bulletins', {
        title: `维护通知 ${width}`,
        content: '<p>今晚 22:00 起停机维护。</p><p>预计一小时。</p>',
      });
      await api('PUT', `/bulletins/${id}`, {
        title: `维护通知（更新） ${width}`,
        content: '<p>今晚 23:00 起停机维护。</p><p>预计一小时。</p><p>给您带来不便，敬请谅解。</p>',
        topup: 1,
        version: 1,
      });
      await api('PUT', `/bulletins/${id}`, { title: `维护已取消 ${width}`, content: '<p>取消。</p>', version: 2 });
      const { page, errors } = await signedIn(t, width);
      await page.goto(`${server.url}/admin/bulletins/${id}`);
      await page.getByRole('button', { name: '历史版本' }).click();
      const dialog = page.getByRole('dialog', { name: '历史版本' });
      const versions = dialog.getByRole('list', { name: '版本列表' }).getByRole('button');
      await versions.first().waitFor();
      assert.equal(await versions.count(), 3);
      assert.match((await versions.first().textContent()) ?? '', /第 3 版.*当前.*admin-token/);
      await shoot(page, 'revisions', width);

      await versions.nth(1).click();
      await dialog.getByRole('heading', { name: '第 2 版相对第 1 版的改动' }).waitFor();
      await dialog.getByText('给您带来不便，敬请谅解。').waitFor();
      assert.equal(await dialog.locator('.line-through', { hasText: '2' }).count(), 1, 'the changed hour');
      await dialog.getByText('否 →').waitFor();
      await shoot(page, 'revision-diff', width);

      await dialog.getByRole('button', { name: '恢复此版本' }).click();
      const confirm = page.getByRole('alertdialog', { name: '恢复到第 2 版？' });
      await confirm.waitFor();
      await shoot(page, 'revision-confirm', width);
      await confirm.getByRole('button', { name: '恢复此版本' }).click();
      await notice(page, '已恢复到第 2 版，保存为第 4 版').waitFor();
      assert.equal(await page.getByLabel('标题').inputValue(), `维护通知（更新） ${width}`);
      const saved = await api<{ title: string; version: number; topup: number }>('GET', `/bulletins/${id}`);
      assert.deepEqual([saved.title, saved.version, saved.topup], [`维护通知（更新） ${width}`, 4, 1]);
      const { list } = await api<{ list: { action: string; by: string }[] }>('GET', `/bulletins/${id}/revisions`);
      assert.deepEqual([list[0]?.action, list[0]?.by], ['restore', 'alice']);
      assert.deepEqual(errors, []);
    });

    test(`a deleted announcement comes back from 回收站 after its notice is gone, another is purged (${width})`, async (t) => {
      const { id } = await api<{ id: number }>('POST', '/bulletins', {
        title: `误删的公告 ${width}`,
        content: '<p>x</p>',
      });
      const { id: other } = await api<{ id: number }>('POST', '/bulletins', { title: `不要了 ${width}`, content: '' });
      await api('DELETE', `/bulletins/${other}`);
      const { page, errors } = await signedIn(t, width);
      await page.goto(`${server.url}/admin/bulletins/${id}`);
      await page.getByRole('button', { name: '删除', exact: true }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
      await notice(page, '公告已删除').waitFor();
      await page.getByRole('region', { name: /通知/ }).getByRole('button', { name: '关闭' }).click();
      await notice(page, '公告已删除').waitFor({ state: 'detached' });

      await page.getByRole('link', { name: '回收站' }).click();
      const trash = page.getByRole('list', { name: '已删除的公告' });
      await trash.getByText(`误删的公告 ${width}`).waitFor();
      await shoot(page, 'trash', width);
      await trash.getByRole('button', { name: `恢复“误删的公告 ${width}”` }).click();
      await notice(page, `“误删的公告 ${width}”已恢复`).waitFor();
      await trash.getByText(`误删的公告 ${width}`).waitFor({ state: 'detached' });
      assert.equal((await fetch(`${server.url}/v1/bulletin/detail?id=${id}`)).status, 200, 'on the site again');

      await trash.getByRole('button', { name: `彻底删除“不要了 ${width}”` }).click();
      const confirm = page.getByRole('alertdialog', { name: '彻底删除这条公告？' });
      await confirm.waitFor();
      await shoot(page, 'purge-confirm', width);
      await confirm.getByRole('button', { name: '彻底删除' }).click();
      await notice(page, `“不要了 ${width}”已彻底删除`).waitFor();
      const left = await api<{ list: { id: number }[] }>('GET', '/bulletins/trash');
      assert.ok(!left.list.some((item) => item.id === other || item.id === id));
      assert.deepEqual(errors, []);
    });
  }
});
