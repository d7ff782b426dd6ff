/**
 * The download cards are drawn from the early API answers before the site's script runs
 * (web/src/early-download.ts, loaded by web/src/boot-route.ts), with the site's own rules and
 * markup, and stay on screen while the script takes over (web/src/main.tsx): their buttons
 * work from the first seconds, and the visitor never sees the facts go away again.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { useSiteAndBrowser } from './support/fixture.js';
import { launchBrowser } from './support/browser.js';
import {
  assertNoProblems,
  countLoading,
  holdScript,
  openPage,
  untilParsed,
  watchEarlyDrawing,
} from './support/page-helpers.js';
import { repoRoot } from './support/server.js';

const site = useSiteAndBrowser();
const settings = JSON.parse(readFileSync(join(repoRoot, 'site.config.json'), 'utf8')) as Record<string, string>;
const appStore = `https://apps.apple.com/app/id${settings.iosAppStoreId}`;
const packagesCall = /\/v1\/common\/getInstallPackageAddrs$/;
const configCall = /\/v1\/common\/appconfig$/;
const iphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** The cards' list as shown, less the mark boot-route.ts watches the early cards' paint by and
 * the early copy buttons' invisibility. */
const cardsMarkup = (page: Page) =>
  page
    .locator('#root ul:has(> li[data-platform])')
    .evaluate((list) => list.innerHTML.replace(' elementtiming="early-list"', '').replaceAll(' invisible"', '"'));

/** Each card as shown: platform, recommended, button address, facts. */
const cardsOf = (page: Page) =>
  page.locator('#root li[data-platform]').evaluateAll((cards) =>
    cards.map((card) => ({
      platform: card.getAttribute('data-platform'),
      recommended: card.hasAttribute('data-recommended'),
      href: card.querySelector('[data-field="button"]')?.getAttribute('href') ?? null,
      facts: [...card.querySelectorAll('[data-field="details"] dd, [data-field="details"] code')].map(
        (fact) => fact.textContent,
      ),
    })),
  );

/** Opens the download screen with the script held back until the early cards are drawn, lets
 * the script in, and checks it took over without a change to the cards or a loading moment.
 * Answers the cards as drawn before the script. */
async function drawnThenTakenOver(page: Page, origin = site.server.url) {
  const release = await holdScript(page);
  await page.goto(`${origin}/#/download`, untilParsed);
  await page.locator('html[data-early-list="/download"]').waitFor({ state: 'attached' });
  assert.equal(await page.locator('[data-loading]').count(), 0);
  // A copy button shows only once the script can answer it.
  assert.equal(await page.getByRole('button', { name: /SHA-256/ }).count(), 0);
  const early = { markup: await cardsMarkup(page), cards: await cardsOf(page) };
  const loadingSeen = await countLoading(page);
  release();
  await page.locator('html[data-rendered]').waitFor({ state: 'attached' });
  assert.equal(await loadingSeen(), 0);
  assert.equal(await cardsMarkup(page), early.markup);
  return early.cards;
}

describe('the download cards before the script', () => {
  test('drawn from the early answers as the script draws them, ranked for the visitor, buttons working', async (t) => {
    const response = await fetch(`${site.server.url}/v1/common/getInstallPackageAddrs`);
    const packages = (await response.json()) as { OS: string; DownloadURL: string; sha256?: string }[];
    const url = (os: string) => packages.find((entry) => entry.OS === os)?.DownloadURL;
    const open = await openPage(site.browser, 'phone', { prerendered: true, userAgent: iphone });
    t.after(() => open.close());
    const { page } = open;
    const cards = await drawnThenTakenOver(page);
    assert.deepEqual(
      cards.map(({ platform, recommended, href }) => ({ platform, recommended, href })),
      [
        { platform: 'ios', recommended: true, href: appStore },
        { platform: 'android', recommended: false, href: url('android') },
        { platform: 'windows', recommended: false, href: url('windows') },
        { platform: 'mac', recommended: false, href: url('mac') },
      ],
    );
    const android = cards.find((card) => card.platform === 'android');
    assert.ok(android?.facts.includes(packages.find((entry) => entry.OS === 'android')?.sha256 ?? 'no hash'));
    // The script's own handlers answer the cards it took over.
    await page.getByRole('button', { name: /复制 Android/ }).click();
    await page
      .getByText(/已复制|复制失败/)
      .first()
      .waitFor();
    assertNoProblems(open);
  });

  test('another server’s answers (an envelope, the string form, relative addresses, the CDN) are drawn as the script draws them', async (t) => {
    const open = await openPage(site.browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    const entries = [
      { OS: 'android', DownloadURL: 'file/preview/app.apk?v=2', version: '6.0.0', size: 52428800 },
      { OS: 'ios', DownloadURL: 'https://example.test/ios', version: '6.0.0' },
      { OS: 'windows', DownloadURL: 'pkg/setup.exe', released_at: 1714557600 },
      { OS: 'mac', DownloadURL: 'https://cdn.example.test/mac.dmg' },
    ];
    await page.route(packagesCall, (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ code: 0, data: entries.map((entry) => JSON.stringify(entry)).join(', ') }),
      }),
    );
    await page.route(configCall, (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ use_cdn: '1', common_cdn_bucket_url: 'https://bucket.example.test/' }),
      }),
    );
    const cards = await drawnThenTakenOver(page);
    const appUrl = String(settings.appUrl).replace(/\/+$/, '');
    assert.deepEqual(cards, [
      {
        platform: 'android',
        recommended: false,
        href: 'https://bucket.example.test/app.apk?v=2',
        facts: ['6.0.0', '50.0 MB'],
      },
      { platform: 'ios', recommended: false, href: appStore, facts: ['6.0.0'] },
      { platform: 'windows', recommended: false, href: `${appUrl}/pkg/setup.exe`, facts: ['2024-05-01'] },
      { platform: 'mac', recommended: false, href: 'https://cdn.example.test/mac.dmg', facts: [] },
    ]);
    assertNoProblems(open);
  });

  test('the string form as a bare text body, no JSON as a whole, is drawn early and by the script', async (t) => {
    const open = await openPage(site.browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    const entries = [
      { OS: 'android', DownloadURL: 'https://example.test/app.apk', version: '6.1.0' },
      { OS: 'windows', DownloadURL: 'https://example.test/setup.exe' },
      { OS: 'mac', DownloadURL: 'https://example.test/mac.dmg' },
    ];
    await page.route(packagesCall, (route) =>
      route.fulfill({ contentType: 'text/plain', body: entries.map((entry) => JSON.stringify(entry)).join(', ') }),
    );
    const cards = await drawnThenTakenOver(page);
    assert.deepEqual(
      cards.filter((card) => card.platform !== 'ios').map((card) => [card.platform, card.href]),
      [
        ['android', 'https://example.test/app.apk'],
        ['windows', 'https://example.test/setup.exe'],
        ['mac', 'https://example.test/mac.dmg'],
      ],
    );
    assertNoProblems(open);
  });

  test('the primary domain: the fixed APK’s card, with the facts of the entry that names it', async (t) => {
    const browser = await launchBrowser([`--host-resolver-rules=MAP ${settings.primaryDomain} 127.0.0.1`]);
    const open = await openPage(browser, 'phone', { prerendered: true });
    t.after(async () => {
      await open.close();
      await browser.close();
    });
    const { page } = open;
    await page.route(packagesCall, (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify([
          { OS: 'android', DownloadURL: settings.androidApkUrl, version: '7.1.0', sha256: 'ab'.repeat(32) },
          { OS: 'ios', DownloadURL: 'https://example.test/ios' },
        ]),
      }),
    );
    const cards = await drawnThenTakenOver(page, `http://${settings.primaryDomain}:${site.server.port}`);
    assert.deepEqual(cards, [
      { platform: 'android', recommended: false, href: settings.androidApkUrl, facts: ['7.1.0', 'ab'.repeat(32)] },
    ]);
    // Chromium notes that a host other than localhost over plain http gets no COOP: the test's
    // setup, not the site's.
    assert.deepEqual(
      open.problems.filter((problem) => !problem.includes('Cross-Origin-Opener-Policy')),
      [],
    );
  });

  test('a language picked before the answers come leaves the cards to the script, in that language', async (t) => {
    const open = await openPage(site.browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    let answer = () => {};
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    await page.route(packagesCall, async (route) => {
      await held;
      await route.continue();
    });
    const release = await holdScript(page);
    const settled = await watchEarlyDrawing(page);
    const asked = page.waitForRequest(packagesCall);
    await page.goto(`${site.server.url}/#/download`, untilParsed);
    await asked;
    await page.getByRole('combobox', { name: '语言' }).selectOption('en');
    answer();
    await settled();
    assert.equal(await page.locator('html[data-early-list]').count(), 0);
    release();
    await page.locator('html[data-rendered]').waitFor({ state: 'attached' });
    await page.getByRole('heading', { level: 1, name: /^Download/ }).waitFor();
    await page
      .getByRole('button', { name: /SHA-256/ })
      .first()
      .waitFor();
    assert.equal(await page.locator('html[data-early-list]').count(), 0);
    assertNoProblems(open);
  });

  test('an address whose ping fails draws nothing', async (t) => {
    const open = await openPage(site.browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    await page.route(/\/v1\/ping$/, (route) => route.fulfill({ status: 503, body: '' }));
    const release = await holdScript(page);
    const settled = await watchEarlyDrawing(page);
    await page.goto(`${site.server.url}/#/download`, untilParsed);
    await settled();
    assert.equal(await page.locator('html[data-early-list]').count(), 0);
    release();
    await page.locator('html[data-rendered]').waitFor({ state: 'attached' });
    // The script found no address: no package list, so no working button but the App Store's.
    await page.locator('li[data-platform="windows"] [aria-disabled="true"]').waitFor();
  });

  test('a card that would have no working button leaves the cards to the script', async (t) => {
    const open = await openPage(site.browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    await page.route(packagesCall, (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify([{ OS: 'android', DownloadURL: 'https://example.test/app.apk' }]),
      }),
    );
    const release = await holdScript(page);
    const settled = await watchEarlyDrawing(page);
    await page.goto(`${site.server.url}/#/download`, untilParsed);
    await settled();
    assert.equal(await page.locator('html[data-early-list]').count(), 0);
    assert.ok((await page.locator('[data-loading]').count()) > 0);
    release();
    await page.locator('html[data-rendered]').waitFor({ state: 'attached' });
    await page.locator('li[data-platform="windows"] [aria-disabled="true"]').waitFor();
    assert.equal(
      await page.locator('li[data-platform="android"] [data-field="button"]').getAttribute('href'),
      'https://example.test/app.apk',
    );
    assertNoProblems(open);
  });
});
