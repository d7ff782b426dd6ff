/**
 * The changelog screen (docs/site.md#changelog) in Chromium against the real server: the
 * releases published through the admin API, per platform and newest first, at phone and desktop
 * width with zero axe violations; reached from the download screen and the footer; and its first
 * frame prerendered into the page with the feed linked from the head.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { axeViolations } from './support/axe.js';
import { launchBrowser } from './support/browser.js';
import { assertNoProblems, openPage, waitForRoute } from './support/page-helpers.js';
import { adminApi } from './support/admin-api.js';
import { startServer, type RunningServer } from './support/server.js';

let browser: Browser;
let server: RunningServer;

async function publish(body: object): Promise<void> {
  await adminApi(server, 'POST', '/releases', body);
}

before(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer({ DEMO_CONTENT: '0' })]);
  await publish({
    os: 'android',
    url: 'https://dl.example.com/xl-5.0.apk',
    version: '5.0.0',
    notes: '首个版本',
    released_at: '2025-01-10 10:00:00',
    size: 52_428_800,
  });
  await publish({
    os: 'mac',
    url: 'https://dl.example.com/xl-5.0.dmg',
    version: '5.0.0',
    released_at: '2025-02-01 10:00:00',
    size: 83_886_080,
  });
  await publish({
    os: 'android',
    url: 'https://dl.example.com/xl-5.1.apk',
    version: '5.1.0',
    notes: '新增夜间模式\n修复若干问题',
    force_update: true,
    released_at: '2025-03-05 09:00:00',
    size: 55_574_528,
  });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the changelog screen', () => {
  for (const viewport of ['phone', 'desktop'] as const) {
    test(`${viewport}: releases per platform, newest first, with date, size and notes; no axe violations`, async (t) => {
      const open = await openPage(browser, viewport);
      t.after(() => open.close());
      const { page } = open;
      await page.goto(`${server.url}/#/changelog`);
      await page.getByRole('heading', { level: 1, name: '更新日志' }).waitFor();
      const list = page.getByTestId('changelog');
      await list.waitFor();
      assert.deepEqual(await list.getByRole('heading', { level: 2 }).allTextContents(), [
        'Android 2 个版本',
        'Mac 1 个版本',
      ]);
      const android = list.getByRole('region', { name: /Android/ });
      const items = await android.getByRole('listitem').allInnerTexts();
      assert.equal(items.length, 2);
      assert.match(
        items[0] ?? '',
        /5\.1\.0[\s\S]*强制更新[\s\S]*2025-03-05[\s\S]*53\.0 MB[\s\S]*新增夜间模式\n修复若干问题/,
      );
      assert.match(items[1] ?? '', /5\.0\.0[\s\S]*2025-01-10[\s\S]*50\.0 MB[\s\S]*首个版本/);
      assert.match(await list.getByRole('region', { name: /Mac/ }).innerText(), /暂无更新说明/);
      assert.deepEqual(await axeViolations(page), []);
      assertNoProblems(open);
    });
  }

  test('the download screen and the footer link to it', async (t) => {
    const open = await openPage(browser, 'phone');
    t.after(() => open.close());
    const { page } = open;
    await page.goto(`${server.url}/#/download`);
    await page.getByRole('main').getByRole('link', { name: '更新日志' }).click();
    await waitForRoute(page, '/changelog');
    await page.getByRole('heading', { level: 1, name: '更新日志' }).waitFor();
    await page.goto(`${server.url}/#/`);
    await page.getByRole('contentinfo').getByRole('link', { name: '更新日志' }).click();
    await waitForRoute(page, '/changelog');
    await page.getByTestId('changelog').waitFor();
    assertNoProblems(open);
  });

  test('the page carries its prerendered first frame, and the Atom feed in its head', async () => {
    for (const lang of ['zh-CN', 'zh-TW', 'en'] as const) {
      const html = await (await fetch(`${server.url}/?lang=${lang}`)).text();
      const frame = /<template data-route="\/changelog"[^>]*>([\s\S]*?)<\/template>/.exec(html)?.[1];
      assert.ok(frame !== undefined, `${lang}: the changelog has a frame`);
      const heading = { 'zh-CN': '更新日志', 'zh-TW': '更新日誌', en: 'Changelog' }[lang];
      assert.match(frame, new RegExp(`<h1[^>]*>${heading}</h1>`));
      assert.match(html, /<link rel="alternate" type="application\/atom\+xml" title="[^"]+" href="\/changelog.atom">/);
    }
    const feed = await fetch(`${server.url}/changelog.atom`);
    assert.match(feed.headers.get('content-type') ?? '', /^application\/atom\+xml/);
    assert.equal((await feed.text()).match(/<entry>/g)?.length, 3);
  });
});
