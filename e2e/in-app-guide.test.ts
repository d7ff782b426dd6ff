/**
 * Inside the chat apps' built-in browsers (docs/site.md#in-app-browsers), on a 390 px phone
 * with each app's own user agent: a download the app blocks opens the guide, one it lets through
 * goes ahead, an ordinary browser never sees the guide nor fetches its chunk; the guide is a
 * modal dialog (focus in and back, Escape, axe) and each one shown is counted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { DownloadStats } from '@chat-site/contract/admin';
import { inAppAgents, ordinaryAgents } from '../packages/contract/test/in-app-user-agents.js';
import { adminApi } from './support/admin-api.js';
import { axeViolations } from './support/axe.js';
import { contextOptions } from './support/browser.js';
import { holdScript, scriptHasTakenOver, untilParsed } from './support/page-helpers.js';
import type { RunningServer } from './support/server.js';
import { startServerAndBrowser, stopServerAndBrowser } from './support/per-file.js';
import { shot } from './support/shots.js';

let server: RunningServer;
let browser: Browser;
before(async () => ({ server, browser } = await startServerAndBrowser()));
after(() => stopServerAndBrowser(server, browser));

const guideChunk = /\/assets\/guide-[\w-]+\.js$/;

/** A 390 px phone sending `userAgent`; the answered list fills with the guide chunks it fetches. */
async function phone(userAgent: string) {
  const context = await browser.newContext(
    contextOptions('phone', { viewport: { width: 390, height: 844 }, userAgent }),
  );
  // The App Store and TestFlight are not this test's to reach: a popup's own load is refused.
  await context.route(
    (url) => url.origin !== new URL(server.url).origin,
    (route) => route.abort(),
  );
  const page = await context.newPage();
  const problems: string[] = [];
  const chunks: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('request', (request) => {
    if (guideChunk.test(new URL(request.url()).pathname)) chunks.push(request.url());
  });
  return { page, context, problems, chunks };
}

async function open(page: Page, route: string): Promise<void> {
  await page.goto(`${server.url}/#${route}`);
  await scriptHasTakenOver(page);
}

const guide = (page: Page) => page.getByRole('dialog');

/** Taps `name` and tells whether the guide came up (it comes or the tap went ahead, never both). */
async function tap(page: Page, name: string): Promise<'guide' | 'went ahead'> {
  const link = page.getByRole('link', { name, exact: true });
  const target = await link.getAttribute('target');
  const went = target === '_blank' ? page.waitForEvent('popup') : page.waitForEvent('download');
  went.catch(() => undefined);
  await link.click();
  const shown = guide(page)
    .waitFor({ timeout: 10_000 })
    .then(() => 'guide' as const);
  shown.catch(() => undefined);
  const result = await Promise.race([shown, went.then(() => 'went ahead' as const)]);
  if (result === 'guide')
    assert.equal(await Promise.race([went.then(() => true), delay(500)]), false, `${name} went ahead too`);
  return result;
}

const delay = (ms: number) => new Promise<false>((resolve) => setTimeout(() => resolve(false), ms));

describe('in each app, on a 390 px phone', () => {
  for (const agent of inAppAgents) {
    test(`${agent.name}: the guide where the app blocks, the download where it does not`, async (t) => {
      const { page, context, problems } = await phone(agent.userAgent);
      t.after(() => context.close());
      await open(page, '/download');
      if (agent.os === 'android') {
        assert.equal(await tap(page, '下载 Android'), 'guide');
        await guide(page).getByRole('heading', { name: '请在浏览器中打开' }).waitFor();
        await guide(page).getByText('选择“在浏览器中打开”').waitFor();
      } else {
        // The App Store opens from them all but Douyin and TikTok.
        assert.equal(await tap(page, '下载 iOS'), agent.app === 'douyin' ? 'guide' : 'went ahead');
        await open(page, '/downloadHelp');
        assert.equal(await tap(page, '获取 TestFlight'), 'guide');
        await guide(page).getByRole('heading', { name: '请在 Safari 中打开' }).waitFor();
        await guide(page).getByText('选择“在 Safari 中打开”').waitFor();
      }
      assert.deepEqual(problems, []);
    });
  }
});

describe('in ordinary browsers', () => {
  test('Chrome on Android downloads the APK and never fetches the guide', async (t) => {
    const { page, context, chunks } = await phone(ordinaryAgents['Chrome on Android'] ?? '');
    t.after(() => context.close());
    await open(page, '/download');
    assert.equal(await tap(page, '下载 Android'), 'went ahead');
    assert.deepEqual(chunks, []);
  });

  test('Safari on iPhone opens TestFlight and the App Store, and never fetches the guide', async (t) => {
    const { page, context, chunks } = await phone(ordinaryAgents['Safari on iPhone'] ?? '');
    t.after(() => context.close());
    await open(page, '/download');
    assert.equal(await tap(page, '下载 iOS'), 'went ahead');
    await open(page, '/downloadHelp');
    assert.equal(await tap(page, '获取 TestFlight'), 'went ahead');
    assert.deepEqual(chunks, []);
  });
});

describe('the guide', () => {
  const weChat = inAppAgents.find((agent) => agent.app === 'wechat' && agent.os === 'android')?.userAgent ?? '';

  test('takes focus, keeps it, gives it back on Escape; axe finds nothing; the address is there to copy', async (t) => {
    const { page, context } = await phone(weChat);
    t.after(() => context.close());
    await open(page, '/download');
    const link = page.getByRole('link', { name: '下载 Android', exact: true });
    const href = await link.getAttribute('href');
    await link.focus();
    await page.keyboard.press('Enter');
    await guide(page).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('role')), 'dialog');
    await guide(page)
      .getByText(href ?? '', { exact: true })
      .waitFor();
    for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
    assert.ok(await page.evaluate(() => document.querySelector('[role=dialog]')?.contains(document.activeElement)));
    assert.deepEqual(await axeViolations(page), []);
    await page.keyboard.press('Escape');
    await guide(page).waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), '下载 Android');
    await link.click();
    await guide(page).getByRole('button', { name: '知道了' }).click();
    await guide(page).waitFor({ state: 'detached' });
  });

  test('/dl/android opened in WeChat itself (a QR code, a shared link): the server answers the guide', async (t) => {
    const { page, context, problems } = await phone(weChat);
    t.after(() => context.close());
    const downloads: string[] = [];
    page.on('download', (download) => downloads.push(download.url()));
    const answer = await page.goto(`${server.url}/dl/android`);
    assert.equal(answer?.status(), 200);
    await page.getByRole('heading', { name: '请在浏览器中打开' }).waitFor();
    assert.equal(
      await page.getByLabel('也可以复制下载地址，粘贴到浏览器中打开：').inputValue(),
      `${server.url}/dl/android`,
    );
    assert.deepEqual(await axeViolations(page), []);
    for (const width of [390, 1280])
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height: 844 });
        await page.emulateMedia({ colorScheme });
        await shot(page, `.tmp/in-app/dl-android-${width}-${colorScheme}.png`, true);
      }
    assert.deepEqual([downloads, problems], [[], []]);
  });

  test('a tap on a card drawn before the site script runs opens the guide once it runs', async (t) => {
    const { page, context } = await phone(weChat);
    t.after(() => context.close());
    const release = await holdScript(page);
    await page.goto(`${server.url}/#/download`, untilParsed);
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-early-list'));
    const download = page.waitForEvent('download', { timeout: 3_000 }).then(
      () => true,
      () => false,
    );
    await page.getByRole('link', { name: '下载 Android', exact: true }).click();
    assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-running')), false);
    release();
    await guide(page).getByRole('heading', { name: '请在浏览器中打开' }).waitFor();
    assert.equal(await download, false);
  });

  test('in three languages', async (t) => {
    const { page, context } = await phone(weChat);
    t.after(() => context.close());
    for (const [lang, title] of [
      ['zh-TW', '請在瀏覽器中開啟'],
      ['en', 'Open this page in your browser'],
    ]) {
      await page.goto(`${server.url}/?lang=${lang}#/download`);
      await scriptHasTakenOver(page);
      await page.locator('a[data-download="package"]').first().click();
      await guide(page).getByRole('heading', { name: title }).waitFor();
    }
  });

  test('each visit from an app and each guide shown is counted; an ordinary browser counts nothing', async (t) => {
    const counts = async () => (await adminApi<DownloadStats>(server, 'GET', '/stats/downloads?days=7')).in_app.total;
    const before = await counts();
    const ordinary = await phone(ordinaryAgents['Chrome on Android'] ?? '');
    t.after(() => ordinary.context.close());
    await open(ordinary.page, '/download');
    const { page, context } = await phone(weChat);
    t.after(() => context.close());
    const beacons = (event: string) => page.waitForResponse((answer) => answer.url().endsWith(`/dl/in-app/${event}`));
    const visit = beacons('visit');
    await open(page, '/download');
    await visit;
    const shown = beacons('guide');
    await page.getByRole('link', { name: '下载 Android', exact: true }).click();
    await shown;
    assert.deepEqual(await counts(), { visits: before.visits + 1, guides: before.guides + 1 });
  });
});
