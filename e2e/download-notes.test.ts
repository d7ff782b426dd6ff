/**
 * A release's notes and minimum system on the download cards (docs/site.md#the-download-screen):
 * published through the admin API, shown on the card at phone and desktop width with zero axe
 * violations, the fixed minimum where a release gives none, and the early cards drawn before
 * the site's script the same as the script's own.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from './support/axe.js';
import { launchBrowser } from './support/browser.js';
import { assertNoProblems, holdScript, openPage, untilParsed, waitForRoute } from './support/page-helpers.js';
import { adminApi } from './support/admin-api.js';
import { startServer, type RunningServer } from './support/server.js';

let browser: Browser;
let server: RunningServer;

const notes = ['新增夜间模式', '修复消息偶尔重复的问题', '启动更快', '图片发送更省流量', '修复若干问题'].join('\n');

async function publish(body: object): Promise<void> {
  await adminApi(server, 'POST', '/releases', body);
}

before(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer({ DEMO_CONTENT: '0' })]);
  await publish({ os: 'android', url: 'https://dl.example.com/xl-5.1.apk', version: '5.1.0' });
  await publish({
    os: 'windows',
    url: 'https://dl.example.com/xl-setup-5.1.exe',
    version: '5.1.0',
    notes,
    min_os: 'Windows 10',
  });
  await publish({ os: 'mac', url: 'https://dl.example.com/xl-5.1.dmg', version: '5.1.0' });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const cardOf = (page: Page, os: string) => page.locator(`#root li[data-platform="${os}"]`);

/** The cards' list as shown, less the early cards' paint mark and copy buttons' invisibility. */
const cardsMarkup = (page: Page) =>
  page
    .locator('#root ul:has(> li[data-platform])')
    .evaluate((list) => list.innerHTML.replace(' elementtiming="early-list"', '').replaceAll(' invisible"', '"'));

describe('release notes and minimum system on the download cards', () => {
  for (const viewport of ['phone', 'desktop'] as const) {
    test(`${viewport}: the release's own minimum and notes, clamped, the fixed minimum otherwise; no axe violations`, async (t) => {
      const open = await openPage(browser, viewport);
      t.after(() => open.close());
      const { page } = open;
      await page.goto(`${server.url}/#/download`);
      const windows = cardOf(page, 'windows');
      await windows.getByText('5.1.0').waitFor();
      assert.equal(await windows.locator('[data-field="min-os"]').textContent(), 'Windows 10 及以上');
      const shown = windows.locator('[data-field="notes-text"] p');
      assert.equal(await shown.textContent(), notes);
      // Five lines of notes show three, the rest behind the link to the changelog.
      assert.ok(await shown.evaluate((text) => text.scrollHeight > text.clientHeight));
      assert.equal(await cardOf(page, 'mac').locator('[data-field="min-os"]').textContent(), 'macOS 10.13 及以上');
      assert.equal(await cardOf(page, 'mac').locator('[data-field="notes-text"]').count(), 0);
      assert.equal(await cardOf(page, 'android').locator('[data-field="min-os"]').textContent(), 'Android 10 及以上');
      assert.deepEqual(await axeViolations(page), []);
      await windows.getByRole('link', { name: '查看全部更新说明' }).click();
      await waitForRoute(page, '/changelog');
      await page.getByText('修复消息偶尔重复的问题').first().waitFor();
      assertNoProblems(open);
    });
  }

  test('in English, the minimum is framed in English', async (t) => {
    const open = await openPage(browser, 'desktop');
    t.after(() => open.close());
    const { page } = open;
    await page.goto(`${server.url}/?lang=en#/download`);
    const windows = cardOf(page, 'windows');
    await windows.getByRole('link', { name: 'All release notes' }).waitFor();
    assert.equal(await windows.locator('[data-field="min-os"]').textContent(), 'Windows 10 or later');
    assert.equal(await cardOf(page, 'mac').locator('[data-field="min-os"]').textContent(), 'macOS 10.13 or later');
    assertNoProblems(open);
  });

  test('the early cards show the notes and minimum as the script does', async (t) => {
    const open = await openPage(browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    const release = await holdScript(page);
    await page.goto(`${server.url}/#/download`, untilParsed);
    await page.locator('html[data-early-list="/download"]').waitFor({ state: 'attached' });
    const windows = cardOf(page, 'windows');
    assert.equal(await windows.locator('[data-field="min-os"]').textContent(), 'Windows 10 及以上');
    assert.equal(await windows.locator('[data-field="notes-text"] p').textContent(), notes);
    assert.equal(await cardOf(page, 'mac').locator('[data-field="min-os"]').textContent(), 'macOS 10.13 及以上');
    assert.equal(await cardOf(page, 'mac').locator('[data-field="notes-text"]').count(), 0);
    const early = await cardsMarkup(page);
    release();
    await page.locator('html[data-rendered]').waitFor({ state: 'attached' });
    assert.equal(await cardsMarkup(page), early);
    assertNoProblems(open);
  });
});
