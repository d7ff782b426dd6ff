/** The save conflict dialog (docs/console.md#two-operators-one-announcement): who saved and
 * when, which parts differ, theirs or mine chosen per part, then saved; the same account in two
 * tabs is told so, not that someone else changed it. Phone and desktop, both themes, axe 0. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from './support/axe.js';
import { contextOptions } from './support/browser.js';
import { signIn, startConsoleSite } from './support/console.js';
import { adminApi } from './support/admin-api.js';
import { shootBothThemes, shot } from './support/shots.js';
import type { RunningServer } from './support/server.js';
import { stopServerAndBrowser } from './support/per-file.js';

let server: RunningServer;
let browser: Browser;
before(async () => {
  ({ server, browser } = await startConsoleSite([
    ['alice', 'admin', 'alice-password-1'],
    ['bob', 'editor', 'bob-password-12'],
  ]));
});
after(() => stopServerAndBrowser(server, browser));

const passwords = { alice: 'alice-password-1', bob: 'bob-password-12' };

async function create(title: string): Promise<number> {
  return (await adminApi<{ id: number }>(server, 'POST', '/bulletins', { title, content: '<p>原文</p>' })).id;
}

const detail = async (id: number) =>
  (await (await fetch(`${server.url}/v1/bulletin/detail?id=${id}`)).json()) as { Title: string; Content: string };

/** A signed-in page (its own context: its own session) on the announcement's editor. */
async function editor(t: TestContext, who: 'alice' | 'bob', id: number, viewport: 'phone' | 'desktop', dark: boolean) {
  const context = await browser.newContext(contextOptions(viewport, { colorScheme: dark ? 'dark' : 'light' }));
  t.after(() => context.close());
  const page = await context.newPage();
  await signIn(page, server, who, passwords[who]);
  await page.goto(`${server.url}/admin/bulletins/${id}`);
  await page.getByLabel('标题').waitFor();
  return { page, context };
}

const body = (page: Page) => page.getByRole('textbox', { name: '正文' });

async function saveTitleAndBody(page: Page, title: string, text: string) {
  await page.getByLabel('标题').fill(title);
  await body(page).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
  await page.getByRole('button', { name: '保存修改' }).click();
}

for (const viewport of ['phone', 'desktop'] as const) {
  describe(`the conflict dialog (${viewport})`, () => {
    test('two accounts: who saved, what differs, title theirs and body mine', async (t) => {
      const id = await create(`冲突 ${viewport}`);
      const alice = await editor(t, 'alice', id, viewport, viewport === 'phone');
      const bob = await editor(t, 'bob', id, viewport, viewport === 'phone');
      await saveTitleAndBody(alice.page, '甲的标题', '甲的正文');
      await alice.page.getByText('修改已保存').first().waitFor();

      await saveTitleAndBody(bob.page, '乙的标题', '乙的正文');
      const dialog = bob.page.getByRole('dialog', { name: '保存冲突：这条公告已被 alice 修改' });
      await dialog.waitFor();
      await dialog.getByText(/alice 于 .* 保存过它。现在是第 2 版。不同的部分：标题、正文。/).waitFor();
      // What 用我的 replaces is not lost, and the dialog says where it stays.
      const kept = '选“用我的”的部分会替换已保存的内容；已保存的第 2 版不会丢失，仍在“历史版本”中，可随时查看或恢复。';
      await dialog.getByText(kept).waitFor();
      assert.deepEqual(await axeViolations(bob.page), []);
      const scheme = viewport === 'phone' ? 'dark' : 'light';
      await shot(bob.page, join('.tmp', 'console-messages', `conflict-${viewport}-${scheme}.png`));
      if (viewport === 'desktop') await shootBothThemes(bob.page, 'console-conflict', 'kept-in-history');

      await dialog.getByRole('radio', { name: '用已保存的标题' }).check();
      await dialog.getByRole('button', { name: '按所选保存' }).click();
      await bob.page.getByText('修改已保存').first().waitFor();
      const saved = await detail(id);
      assert.equal(saved.Title, '甲的标题');
      assert.match(saved.Content, /乙的正文/);
      assert.equal(await bob.page.getByLabel('标题').inputValue(), '甲的标题', 'the editor shows what was saved');
      // alice's body, replaced by bob's, is in 历史版本 as the dialog said.
      await bob.page.getByRole('button', { name: '历史版本' }).click();
      await bob.page
        .getByRole('list', { name: '版本列表' })
        .getByText(/第 2 版/)
        .waitFor();
    });

    test('the same account in two tabs is told it saved in another tab', async (t) => {
      const id = await create(`两个标签页 ${viewport}`);
      const first = await editor(t, 'alice', id, viewport, viewport === 'desktop');
      // A second tab of the same browser: the same session.
      const second = await first.context.newPage();
      await second.goto(`${server.url}/admin/bulletins/${id}`);
      await second.getByLabel('标题').waitFor();
      await first.page.getByLabel('标题').fill('第一个标签页');
      await first.page.getByRole('button', { name: '保存修改' }).click();
      await first.page.getByText('修改已保存').first().waitFor();

      await second.getByLabel('标题').fill('第二个标签页');
      await second.getByRole('button', { name: '保存修改' }).click();
      const dialog = second.getByRole('dialog', { name: '保存冲突：这条公告已在另一个标签页或窗口中保存过' });
      await dialog.waitFor();
      assert.equal(await dialog.getByText(/他人/).count(), 0);
      assert.deepEqual(await axeViolations(second), []);
      const scheme = viewport === 'desktop' ? 'dark' : 'light';
      await shot(second, join('.tmp', 'console-messages', `conflict-tab-${viewport}-${scheme}.png`));
      await dialog.getByRole('button', { name: '按所选保存' }).click();
      await second.getByText('修改已保存').first().waitFor();
      assert.equal((await detail(id)).Title, '第二个标签页');
    });
  });
}

describe('a tab left open', () => {
  test("learns within seconds of another's save and delete, and says who", async (t) => {
    const id = await create('留在后台的标签页');
    const alice = await editor(t, 'alice', id, 'desktop', false);
    const bob = await editor(t, 'bob', id, 'desktop', false);
    await saveTitleAndBody(bob.page, '乙改过的标题', '乙的正文');
    await bob.page.getByText('修改已保存').first().waitFor();
    const notice = alice.page.getByRole('status').filter({ hasText: '保存了这条公告' });
    await notice.getByText(/^bob 于 .* 保存了这条公告（现在是第 2 版）。$/).waitFor({ timeout: 10_000 });
    assert.deepEqual(await axeViolations(alice.page), []);
    await shootBothThemes(alice.page, 'console-conflict', 'saved-elsewhere');
    await notice.getByRole('button', { name: '载入已保存的版本' }).click();
    assert.equal(await alice.page.getByLabel('标题').inputValue(), '乙改过的标题');
    await notice.waitFor({ state: 'detached' });

    await adminApi(server, 'DELETE', `/bulletins/${id}`);
    await alice.page.getByText('这条公告已被删除，可在回收站恢复。这里的内容尚未保存。').waitFor({ timeout: 10_000 });
  });
});
