/**
 * The browser's Back and Forward with unsaved edits (docs/console.md#leaving-with-unsaved-edits),
 * in Chromium against the built server: they ask 放弃未保存的修改？ as the console's own links
 * do; 继续编辑 keeps the screen, its address and the edits, 放弃修改并离开 takes the step. Back
 * while that question is already open asks about going back, over the screen still there.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from './support/axe.js';
import { startConsoleSite, watchedConsole } from './support/console.js';
import type { RunningServer } from './support/server.js';
import { stopServerAndBrowser } from './support/per-file.js';

const password = 'alice-password-1';
let browser: Browser;
let server: RunningServer;

before(async () => {
  ({ server, browser } = await startConsoleSite([['alice', 'admin', password]], { DEMO_CONTENT: '0' }));
});
after(() => stopServerAndBrowser(server, browser));

/** Alice on the list of announcements; no CSP report or script error by the end of the test. */
async function openList(t: TestContext): Promise<Page> {
  const { page } = await watchedConsole(t, browser, server, { name: 'alice', password }, { colorScheme: 'light' });
  await heading(page, '公告').waitFor();
  return page;
}

const heading = (page: Page, name: string) => page.getByRole('heading', { name, level: 1, exact: true });
const question = (page: Page) => page.getByRole('alertdialog', { name: '放弃未保存的修改？' });
const path = (page: Page) => new URL(page.url()).pathname;
/** The screen's heading, also while a question hides the page from assistive technology. */
const screenHeading = (page: Page) => page.locator('#console-main h1').textContent();

/** From the list, 新建公告 and a title typed: edits not yet saved. */
async function startWriting(page: Page, title: string): Promise<void> {
  await page.getByRole('link', { name: '新建公告' }).click();
  await heading(page, '新建公告').waitFor();
  await page.getByLabel('标题').fill(title);
  await page.getByText('有未保存的修改').waitFor();
}

describe("the browser's Back with unsaved edits", () => {
  test('asks first: 继续编辑 keeps the screen and the edits, 放弃修改并离开 goes back', async (t) => {
    const page = await openList(t);
    // The skip link makes an entry of its own in the tab's history: Back crosses it too.
    await page.getByRole('link', { name: '跳到主要内容' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/#console-main$/);
    await startWriting(page, '返回键前写的');

    await page.goBack();
    await question(page).waitFor();
    assert.deepEqual(await axeViolations(page), []);
    assert.equal(path(page), '/admin/bulletins/new', 'the address is the editor’s again');
    await question(page).getByRole('button', { name: '继续编辑' }).click();
    await question(page).waitFor({ state: 'hidden' });
    await heading(page, '新建公告').waitFor();
    // Focus is back where it was when Back was pressed.
    await page.waitForFunction(() => document.activeElement?.id === 'bulletin-title');
    assert.equal(await page.getByLabel('标题').inputValue(), '返回键前写的');
    assert.equal(path(page), '/admin/bulletins/new');

    // Asked again, and this time left: the entry before, the list.
    await page.goBack();
    await question(page).getByRole('button', { name: '放弃修改并离开' }).click();
    await heading(page, '公告').waitFor();
    assert.equal(path(page), '/admin/bulletins');
    assert.equal(await question(page).count(), 0);
    // Forward to a fresh editor, nothing unsaved: Back asks nothing.
    await page.goForward();
    await heading(page, '新建公告').waitFor();
    assert.equal(await page.getByLabel('标题').inputValue(), '');
    await page.goBack();
    await heading(page, '公告').waitFor();
    assert.equal(await question(page).count(), 0);
  });

  test('Back while the question is open keeps the editor under it, and asks about going back', async (t) => {
    const page = await openList(t);
    await startWriting(page, '服务器停了');
    // The server away: the save fails, the edits stay unsaved.
    await server.halt();
    let away = true;
    t.after(async () => {
      if (away) await server.resume();
    });
    await page.getByRole('button', { name: '保存草稿' }).click();
    await page.getByText(/保存失败/).waitFor();
    await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '账号' }).click();
    await question(page).waitFor();

    await page.goBack();
    await page.waitForURL(/\/admin\/bulletins\/new$/);
    assert.equal(await screenHeading(page), '新建公告', 'the list is not drawn under the question');
    assert.equal(await page.locator('#bulletin-title').inputValue(), '服务器停了');
    await question(page).waitFor();
    await server.resume();
    away = false;
    await question(page).getByRole('button', { name: '放弃修改并离开' }).click();
    // The step held last was Back: the list, not 账号.
    await heading(page, '公告').waitFor();
    assert.equal(path(page), '/admin/bulletins');
  });
});
