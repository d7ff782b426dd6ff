/**
 * The announcement list's row actions and the end times in a real browser against the real
 * server (docs/console.md#row-actions, docs/console.md#stopping-by-itself): pin and unpin, copy
 * into a new draft, the public page of a published one, delete and undo, each by keyboard at
 * phone and desktop widths with axe at 0; and an announcement set to leave the site that leaves
 * it with no browser open, when the server's scheduler sees its time come (the server's clock
 * moved by the test). Screenshots go to .tmp/rows/ to be looked at.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from './support/axe.js';
import { adminApi, eventually } from './support/admin-api.js';
import { contextOptions, launchBrowser, viewports } from './support/browser.js';
import { addOperator, movableClock, serverFieldTime, setServerClock, signIn } from './support/console.js';
import { recordCspViolations } from './support/page-helpers.js';
import { repoRoot, startServer, type RunningServer } from './support/server.js';
import { shot } from './support/shots.js';

const password = 'dora-password-12';
const shots = join(repoRoot, '.tmp/rows');
let browser: Browser;
let server: RunningServer;
let dir: string;
let clock: ReturnType<typeof movableClock>;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chat-site-rows-e2e-'));
  mkdirSync(shots, { recursive: true });
  clock = movableClock(dir);
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer({ ...clock.env, DEMO_CONTENT: '0' }, { nodeArgs: clock.nodeArgs }),
  ]);
  addOperator(server, 'dora', 'editor', password);
});
after(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const api = <T>(method: string, path: string, body?: unknown) => adminApi<T>(server, method, path, body);

const publicList = async () =>
  (
    (await (await fetch(`${server.url}/v1/bulletin/page?page_index=1&page_size=100`)).json()) as {
      list: { id: number; title: string; topup: number }[];
    }
  ).list;

type Width = 'phone' | 'desktop';

async function openList(t: TestContext, width: Width, theme: 'light' | 'dark') {
  const viewport = width === 'phone' ? { width: 390, height: 844 } : viewports.desktop;
  const context = await browser.newContext(contextOptions(width, { colorScheme: theme, viewport }));
  t.after(() => context.close());
  const csp = await recordCspViolations(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, server, 'dora', password);
  await page.getByRole('list', { name: '公告列表' }).waitFor();
  return { page, csp, errors };
}

const notice = (page: Page, text: string) => page.getByRole('region', { name: /通知/ }).getByText(text);
const actionsOf = (page: Page, title: string) => page.getByRole('button', { name: `“${title}”的操作` });

/** Opens a row's actions from the keyboard: focus on ⋯, Enter. */
async function openActions(page: Page, title: string): Promise<void> {
  await actionsOf(page, title).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: '复制' }).waitFor();
}

/** Tabs from the open ⋯ to the action named `name` and presses Enter on it. */
async function chooseByKeyboard(page: Page, name: string): Promise<void> {
  for (let step = 0; step < 6; step++) {
    await page.keyboard.press('Tab');
    const label = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    if (label === name) {
      await page.keyboard.press('Enter');
      return;
    }
  }
  assert.fail(`${name} is not reachable with Tab`);
}

describe('row actions', () => {
  for (const width of ['phone', 'desktop'] as const) {
    test(`pin, copy, view on the site, delete and undo, by keyboard (${width})`, async (t) => {
      const title = `行操作 ${width}`;
      const { id } = await api<{ id: number }>('POST', '/bulletins', { title, content: '<p>正文</p>' });
      const { page, csp, errors } = await openList(t, width, 'light');
      await openActions(page, title);
      assert.deepEqual(await axeViolations(page), [], 'axe with the actions open');
      await shot(page, join(shots, `list-${width}-light.png`));
      const view = page.getByRole('link', { name: '在网站上查看' });
      assert.equal(await view.getAttribute('href'), `/#/announcement/${id}`);
      assert.equal(await view.getAttribute('target'), '_blank');
      await page.keyboard.press('Escape');
      assert.equal(await actionsOf(page, title).getAttribute('aria-expanded'), 'false');
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), `“${title}”的操作`);

      await openActions(page, title);
      await chooseByKeyboard(page, '置顶');
      // Each notice shows once the write is answered, and the server drops its cached reads
      // before it answers: the public list has the change at once.
      await notice(page, '已置顶').waitFor();
      assert.equal((await publicList()).find((item) => item.id === id)?.topup, 1);
      await openActions(page, title);
      await chooseByKeyboard(page, '取消置顶');
      await notice(page, '已取消置顶').waitFor();
      assert.equal((await publicList()).find((item) => item.id === id)?.topup, 0);

      await openActions(page, title);
      await chooseByKeyboard(page, '复制');
      await page.waitForURL(/\/admin\/bulletins\/\d+$/);
      assert.equal(await page.getByLabel('标题').inputValue(), `${title}（副本）`);
      assert.notEqual(page.url(), `${server.url}/admin/bulletins/${id}`);
      await page.goBack();
      await actionsOf(page, `${title}（副本）`).waitFor();
      await openActions(page, `${title}（副本）`);
      assert.equal(await page.getByRole('link', { name: '在网站上查看' }).count(), 0, 'a draft has no public page');
      await page.keyboard.press('Escape');

      await openActions(page, title);
      await chooseByKeyboard(page, '删除');
      await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
      await notice(page, '公告已删除').waitFor();
      assert.ok(!(await publicList()).some((item) => item.id === id));
      await page.getByRole('button', { name: '撤销' }).click();
      await notice(page, '公告已恢复').waitFor();
      await actionsOf(page, title).waitFor();
      assert.ok((await publicList()).some((item) => item.id === id));
      assert.deepEqual(csp, []);
      assert.deepEqual(errors, []);
    });
  }

  test('screenshots of the list with actions, dark theme, both widths', async (t) => {
    for (const width of ['phone', 'desktop'] as const) {
      const { page } = await openList(t, width, 'dark');
      const title =
        (await page
          .getByRole('button', { name: /的操作$/ })
          .first()
          .getAttribute('aria-label')) ?? '';
      await openActions(page, title.slice(1, -4));
      assert.deepEqual(await axeViolations(page), [], `axe, dark, ${width}`);
      await shot(page, join(shots, `list-${width}-dark.png`));
    }
  });
});

describe('an announcement that leaves the site by itself', () => {
  test('set 下线时间, close the browser: the scheduler takes it off the site at its time', async (t) => {
    const title = '只登到月底';
    const { id } = await api<{ id: number }>('POST', '/bulletins', { title, content: '<p>限时</p>', topup: 1 });
    const { page } = await openList(t, 'desktop', 'light');
    await page.goto(`${server.url}/admin/bulletins/${id}`);
    await page.getByLabel('下线时间').fill(serverFieldTime(10 * 60_000));
    await page.getByLabel('置顶截止').fill(serverFieldTime(5 * 60_000));
    assert.deepEqual(await axeViolations(page), [], 'axe on the editor');
    await shot(page.getByLabel('下线时间'), join(shots, 'editor-field.png'));
    await shot(page.locator('form'), join(shots, 'editor-end-times.png'));
    await page.getByRole('button', { name: '保存修改' }).click();
    await notice(page, '修改已保存').waitFor();
    await page.context().close();

    assert.ok(
      (await publicList()).some((item) => item.id === id),
      'still up before its time',
    );
    setServerClock(server, clock.file, 11 * 60_000);
    t.after(() => setServerClock(server, clock.file, 0));
    assert.ok(
      await eventually(async () => !(await publicList()).some((item) => item.id === id), 15_000),
      'gone from the site with no browser open',
    );
    const html = await (await fetch(`${server.url}/a/${id}`)).status;
    assert.equal(html, 404, 'its share page is gone too');
    const after = await api<{ status: string; topup: number; unpublish_at: string | null }>('GET', `/bulletins/${id}`);
    assert.deepEqual([after.status, after.topup, after.unpublish_at], ['draft', 0, null]);
  });
});
