/**
 * Release notes in the visitor's language (docs/site.md#the-download-screen, docs/site.md#changelog):
 * the zh-TW site shows the traditional notes the server made, on the download cards (the early
 * ones too) and in the changelog; the English site the English the operator wrote, or the Chinese
 * with a note saying so; and another server build, which ignores `lang` and says nothing of it,
 * is still read and shown as Chinese.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { adminApi } from './support/admin-api.js';
import { assertNoProblems, holdScript, openPage, untilParsed } from './support/page-helpers.js';
import type { RunningServer } from './support/server.js';
import { startServerAndBrowser, stopServerAndBrowser } from './support/per-file.js';
import { shootBothThemes } from './support/shots.js';

let server: RunningServer;
let browser: Browser;
before(async () => {
  ({ server, browser } = await startServerAndBrowser({ DEMO_CONTENT: '0' }));
  const release = (os: string, file: string, body: object) =>
    adminApi(server, 'POST', '/releases', { os, url: `https://dl.example.com/${file}`, version: '5.1.0', ...body });
  await release('windows', 'xl-setup-5.1.exe', { notes: '修复了打印机的问题', notes_en: 'Printing fixed' });
  await release('mac', 'xl-5.1.dmg', { notes: '软件启动更快' });
  await release('android', 'xl-5.1.apk', {});
});
after(() => stopServerAndBrowser(server, browser));

const note = 'Originally in Chinese';
const cardOf = (page: Page, os: string) => page.locator(`#root li[data-platform="${os}"]`);
const notesOf = (page: Page, os: string) => cardOf(page, os).locator('[data-field="notes-text"] p').first();
const releaseOf = (page: Page, os: string) => page.locator(`section[aria-labelledby="changelog-${os}"] li`);

describe('traditional Chinese', () => {
  test('the cards and the changelog show the notes the server made', async (t) => {
    const open = await openPage(browser, 'desktop');
    t.after(() => open.close());
    const { page } = open;
    await page.goto(`${server.url}/?lang=zh-TW#/download`);
    await cardOf(page, 'windows').getByText('修復了印表機的問題').waitFor();
    assert.equal(await notesOf(page, 'mac').textContent(), '軟體啟動更快');
    await shootBothThemes(page, 'release-note-languages', 'download-zh-TW');
    await page.goto(`${server.url}/?lang=zh-TW#/changelog`);
    await releaseOf(page, 'mac').getByText('軟體啟動更快').waitFor();
    await releaseOf(page, 'windows').getByText('修復了印表機的問題').waitFor();
    assert.equal(await page.getByText(note).count(), 0);
    assertNoProblems(open);
  });

  test('the early cards, drawn before the script, show them too', async (t) => {
    const open = await openPage(browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    const release = await holdScript(page);
    await page.goto(`${server.url}/?lang=zh-TW#/download`, untilParsed);
    await page.locator('html[data-early-list="/download"]').waitFor({ state: 'attached' });
    assert.equal(await notesOf(page, 'windows').textContent(), '修復了印表機的問題');
    release();
    assertNoProblems(open);
  });
});

describe('English', () => {
  test('the English notes the operator wrote, and the Chinese with a note where there are none', async (t) => {
    const open = await openPage(browser, 'desktop');
    t.after(() => open.close());
    const { page } = open;
    await page.goto(`${server.url}/?lang=en#/download`);
    await cardOf(page, 'windows').getByText('Printing fixed').waitFor();
    assert.equal(await cardOf(page, 'windows').getByText(note).count(), 0);
    assert.equal(await notesOf(page, 'mac').textContent(), '软件启动更快');
    await cardOf(page, 'mac').getByText(note).waitFor();
    await shootBothThemes(page, 'release-note-languages', 'download-en');
    await page.goto(`${server.url}/?lang=en#/changelog`);
    await releaseOf(page, 'windows').getByText('Printing fixed').waitFor();
    assert.equal(await releaseOf(page, 'windows').getByText(note).count(), 0);
    await releaseOf(page, 'mac').getByText(note).waitFor();
    await shootBothThemes(page, 'release-note-languages', 'changelog-en');
    assertNoProblems(open);
  });

  test('the early cards say so as the script does', async (t) => {
    const open = await openPage(browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    const release = await holdScript(page);
    await page.goto(`${server.url}/?lang=en#/download`, untilParsed);
    await page.locator('html[data-early-list="/download"]').waitFor({ state: 'attached' });
    assert.equal(await notesOf(page, 'windows').textContent(), 'Printing fixed');
    assert.equal(await cardOf(page, 'windows').getByText(note).count(), 0);
    assert.equal(await cardOf(page, 'mac').getByText(note).count(), 1);
    release();
    assertNoProblems(open);
  });

  test('another server build that ignores the language is still read, and its notes are said to be Chinese', async (t) => {
    const open = await openPage(browser, 'desktop');
    t.after(() => open.close());
    const { page } = open;
    const asked: string[] = [];
    // Such a build answers as it always did: no notes_lang, no lang.
    await page.route('**/v1/common/getInstallPackageAddrs*', async (route) => {
      asked.push(route.request().url());
      const body = [
        { OS: 'windows', DownloadURL: 'https://dl.example.com/x.exe', version: '4.0.0', notes: '别家的说明' },
      ];
      await route.fulfill({ contentType: 'application/json', body: JSON.stringify(body) });
    });
    await page.route('**/v1/common/changelog*', async (route) => {
      asked.push(route.request().url());
      const body = [{ app_version: '4.0.0', os: 'windows', is_force: 0, update_desc: '别家的说明', created_at: '' }];
      await route.fulfill({ contentType: 'application/json', body: JSON.stringify(body) });
    });
    await page.goto(`${server.url}/?lang=en#/download`);
    await cardOf(page, 'windows').getByText('别家的说明').waitFor();
    await cardOf(page, 'windows').getByText(note).waitFor();
    await page.goto(`${server.url}/?lang=en#/changelog`);
    await releaseOf(page, 'windows').getByText(note).waitFor();
    const langs = asked.map((url) => new URL(url).searchParams.get('lang'));
    assert.ok(langs.length >= 2 && langs.every((lang) => lang === 'en'), asked.join(' '));
    assertNoProblems(open);
  });
});
