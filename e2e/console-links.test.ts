/**
 * Links in the announcement editor by keyboard (docs/console.md#links), in Chromium against the
 * built server: the characters selected with Shift and the arrows are the ones linked, however
 * fast the keys come, they stay marked while the link dialog is open, and text typed at a
 * link's end is not part of it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axeViolations } from './support/axe.js';
import { dialogReady, startConsoleSite, watchedConsole } from './support/console.js';
import type { RunningServer } from './support/server.js';
import { stopServerAndBrowser } from './support/per-file.js';

const password = 'alice-password-1';
let browser: Browser;
let server: RunningServer;

before(async () => {
  ({ server, browser } = await startConsoleSite([['alice', 'admin', password]], { DEMO_CONTENT: '0' }));
});
after(() => stopServerAndBrowser(server, browser));

/** Alice on a new announcement; no CSP report or script error by the end of the test. */
async function newAnnouncement(t: TestContext): Promise<{ page: Page; context: BrowserContext }> {
  const { page, context } = await watchedConsole(
    t,
    browser,
    server,
    { name: 'alice', password },
    { colorScheme: 'light' },
  );
  await page.goto(`${server.url}/admin/bulletins/new`);
  await page.getByLabel('标题').fill('键盘加链接');
  return { page, context };
}

const keys = {
  ArrowLeft: { code: 'ArrowLeft', windowsVirtualKeyCode: 37 },
  Tab: { code: 'Tab', windowsVirtualKeyCode: 9 },
} as const;

/**
 * Shift held while `presses` go in one after another without waiting for the page between
 * them, as from a quick hand on a busy machine: the page handles each key before the next, but
 * its selection-change events can come after the keys that follow.
 */
async function pressWithShift(context: BrowserContext, page: Page, presses: (keyof typeof keys)[]): Promise<void> {
  const cdp = await context.newCDPSession(page);
  const shift = 8;
  const send = (type: 'rawKeyDown' | 'keyUp', key: string, more: object, modifiers = shift) =>
    cdp.send('Input.dispatchKeyEvent', { type, key, modifiers, ...more });
  const shiftKey = { code: 'ShiftLeft', windowsVirtualKeyCode: 16 };
  await Promise.all([
    send('rawKeyDown', 'Shift', shiftKey),
    ...presses.flatMap((key) => [send('rawKeyDown', key, keys[key]), send('keyUp', key, keys[key])]),
    send('keyUp', 'Shift', shiftKey, 0),
  ]);
  await cdp.detach();
}

const body = (page: Page) => page.getByRole('textbox', { name: '正文' });

/** The text of each link in the body, in order. */
const linkTexts = (page: Page) => body(page).locator('a').allTextContents();

/** From the toolbar, the arrows to 链接, Enter, the address, Enter. While the dialog is open
 * the text it will link is still marked in the editor: `marked`. */
async function linkFromToolbar(page: Page, href: string, marked: string): Promise<void> {
  await page.keyboard.press('Home');
  for (let step = 0; step < 7; step++) await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), '链接');
  await page.keyboard.press('Enter');
  await dialogReady(page);
  // The dialog hides the page from assistive technology, so not found by its role here.
  assert.equal((await page.locator('#bulletin-body .kept-selection').allTextContents()).join(''), marked);
  await page.keyboard.type(href);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.id === 'bulletin-body');
}

describe('links by keyboard', () => {
  test('the characters selected with Shift+← are linked, with Shift+Tab hard on their heels', async (t) => {
    const { page, context } = await newAnnouncement(t);
    await body(page).click();
    await page.keyboard.type('请访问网站吧');
    await page.keyboard.press('ArrowLeft');
    await pressWithShift(context, page, ['ArrowLeft', 'ArrowLeft', 'Tab']);
    await linkFromToolbar(page, 'https://example.com/site', '网站');
    assert.deepEqual(await linkTexts(page), ['网站']);
    assert.equal(await body(page).locator('a').getAttribute('href'), 'https://example.com/site');
    assert.equal(await body(page).locator('.kept-selection').count(), 0, 'back in the text: the browser shows it');
    // The next character typed goes after the link, not into it.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type('！');
    assert.deepEqual(await linkTexts(page), ['网站']);
    assert.equal(await body(page).innerText(), '请访问网站！吧');
    assert.deepEqual(await axeViolations(page), []);
  });

  test('text typed right after a link is plain text, and is saved so', async (t) => {
    const { page } = await newAnnouncement(t);
    await body(page).click();
    await page.keyboard.type('官网');
    await page.keyboard.press('Shift+Home');
    await page.keyboard.press('Shift+Tab');
    await linkFromToolbar(page, 'https://example.com/', '官网');
    // At the link's end, typing on: a Chinese sentence has no space to end a link.
    await page.keyboard.press('End');
    await page.keyboard.type('上有新版本下载');
    assert.deepEqual(await linkTexts(page), ['官网']);
    // An address typed into the text is still linked when a space ends it, and no further.
    await page.keyboard.type('，见 https://example.com/download 页面');
    assert.deepEqual(await linkTexts(page), ['官网', 'https://example.com/download']);
    await page.getByRole('button', { name: '保存草稿' }).click();
    await page.waitForURL(/\/admin\/bulletins\/\d+$/);
    await page.reload();
    await body(page).getByText('页面').waitFor();
    assert.deepEqual(await linkTexts(page), ['官网', 'https://example.com/download']);
    assert.equal(await body(page).innerText(), '官网上有新版本下载，见 https://example.com/download 页面');
  });
});
