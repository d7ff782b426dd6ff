/**
 * Announcements in the visitor's language (docs/site.md#announcements-in-the-visitors-language):
 * the zh-TW site shows the traditional version the server made, in the detail, the list's rows
 * and the pinned strip; the English site shows the English the operator wrote, or the Chinese
 * with a note saying so; and an answer from another server build, which ignores `lang` and says
 * nothing of it, is still read and shown as Chinese.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertNoProblems, openPage } from './support/page-helpers.js';
import { adminApi } from './support/admin-api.js';
import type { RunningServer } from './support/server.js';
import { startServerAndBrowser, stopServerAndBrowser } from './support/per-file.js';

let server: RunningServer;
let browser: Browser;
let chineseOnly: number;
let withEnglish: number;
before(async () => {
  ({ server, browser } = await startServerAndBrowser({ DEMO_CONTENT: '0' }));
  ({ id: chineseOnly } = await adminApi<{ id: number }>(server, 'POST', '/bulletins', {
    title: '软件更新信息',
    content: '<p>新版软件支持打印机。</p>',
    topup: 1,
  }));
  ({ id: withEnglish } = await adminApi<{ id: number }>(server, 'POST', '/bulletins', {
    title: '网络维护',
    content: '<p>今晚维护网络。</p>',
    title_en: 'Network maintenance',
    content_en: '<p>The network is down for maintenance tonight.</p>',
  }));
});
after(() => stopServerAndBrowser(server, browser));

const note = 'Originally in Chinese';
const article = (page: Page) => page.getByRole('article');

describe('traditional Chinese', () => {
  test('the detail, the list and the pinned strip show the version the server made', async (t) => {
    const open = await openPage(browser, 'desktop');
    t.after(() => open.close());
    const { page } = open;
    await page.goto(`${server.url}/?lang=zh-TW#/announcements/${chineseOnly}`);
    await article(page).getByRole('heading', { name: '軟體更新資訊' }).waitFor();
    await article(page).getByText('新版軟體支援印表機。').waitFor();
    await page
      .getByRole('navigation')
      .getByRole('link', { name: /網路維護/ })
      .waitFor();
    assert.equal(await page.getByText(note).count(), 0);
    await page.goto(`${server.url}/?lang=zh-TW#/`);
    await page.getByText('軟體更新資訊').first().waitFor();
    assertNoProblems(open);
  });

  test("a phone's first rows, written by the server into the page, are traditional", async (t) => {
    const open = await openPage(browser, 'phone');
    t.after(() => open.close());
    const { page } = open;
    const response = await page.goto(`${server.url}/?lang=zh-TW#/announcements`);
    const html = (await response?.text()) ?? '';
    assert.ok(html.includes('軟體更新資訊') && !html.includes('软件更新信息'), 'the page carries the traditional rows');
    await page
      .getByRole('link', { name: /軟體更新資訊/ })
      .first()
      .waitFor();
    assertNoProblems(open);
  });
});

describe('English', () => {
  test('the English the operator wrote, and the Chinese with a note where there is none', async (t) => {
    const open = await openPage(browser, 'desktop');
    t.after(() => open.close());
    const { page } = open;
    await page.goto(`${server.url}/?lang=en#/announcements/${withEnglish}`);
    await article(page).getByRole('heading', { name: 'Network maintenance' }).waitFor();
    assert.equal(await article(page).getByText(note).count(), 0);
    await page.goto(`${server.url}/?lang=en#/announcements/${chineseOnly}`);
    await article(page).getByRole('heading', { name: '软件更新信息' }).waitFor();
    await article(page).getByText(note).waitFor();
    assertNoProblems(open);
  });

  test('another server build that ignores the language is still read, and its text is said to be Chinese', async (t) => {
    const open = await openPage(browser, 'desktop');
    t.after(() => open.close());
    const { page } = open;
    const asked: string[] = [];
    await page.route('**/v1/bulletin/detail*', async (route) => {
      asked.push(route.request().url());
      // Such a build answers as it always did: PascalCase, no Lang.
      await route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          Id: withEnglish,
          Title: '别家服务器的公告',
          Content: '<p>正文</p>',
          CreatedAt: '2024-05-01 10:00:00',
        }),
      });
    });
    await page.goto(`${server.url}/?lang=en#/announcements/${withEnglish}`);
    await article(page).getByRole('heading', { name: '别家服务器的公告' }).waitFor();
    await article(page).getByText(note).waitFor();
    assert.ok(
      asked.some((url) => new URL(url).searchParams.get('lang') === 'en'),
      asked.join(' '),
    );
    assertNoProblems(open);
  });
});
