/**
 * The announcements list before the site's script runs: its first rows are in the page the
 * server sends (server/src/page/early-rows.ts); when the site's API is another server, a phone
 * draws the list from the early API answer (web/src/early-list.ts, loaded by
 * web/src/boot-route.ts). Either stays on screen while the script takes over (web/src/main.tsx):
 * the visitor never sees it go back to the loading line.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { earlyAnswersGlobal } from '@chat-site/contract';
import type { Page } from 'playwright-core';
import { useSiteAndBrowser } from './support/fixture.js';
import { startServer, type RunningServer } from './support/server.js';
import { writeSiteConfig } from './support/stubs.js';
import {
  assertNoProblems,
  countLoading,
  entryScript,
  holdScript,
  openPage,
  untilParsed,
} from './support/page-helpers.js';

const site = useSiteAndBrowser();
const listCall = /\/v1\/bulletin\/page\?/;

// A second site whose settings name the first as its API (apiAddrs): its page carries no rows,
// as that API's list may not be its own, and a phone draws them from the early answer.
let elsewhere: RunningServer;
let elsewhereConfig: ReturnType<typeof writeSiteConfig> | undefined;

interface WireItem {
  id: number;
  title: string;
  topup: number;
  created_at: string;
}

/** Each row of the list as shown: title, date, pinned mark and link. */
const rowsOf = (page: Page) =>
  page.locator('nav li a').evaluateAll((links) =>
    links.map((link) => ({
      title: link.querySelector('[data-field="title"]')?.textContent,
      date: link.querySelector('[data-field="date"]')?.textContent,
      pinned: link.querySelector('[data-field="pinned"]') !== null,
      href: link.getAttribute('href'),
      selected: link.getAttribute('aria-current') === 'true',
    })),
  );

/** Opens the announcements screen with the script held back and waits for the list's answer:
 * no list is drawn, the loading line stays. Answers the function that lets the script in. */
async function openWithoutEarlyList(page: Page): Promise<() => void> {
  const release = await holdScript(page);
  const answered = page.waitForResponse(listCall);
  await page.goto(`${elsewhere.url}/#/announcements`, untilParsed);
  await answered;
  // Nothing can draw the list before the script: web/src/boot-route.ts decided, as it ran
  // before the page was parsed, not to load the drawing script (it would leave `drawn` to call).
  const drawer = await page.evaluate(
    (name) => (window as unknown as Record<string, { drawn?: unknown } | undefined>)[name]?.drawn !== undefined,
    earlyAnswersGlobal,
  );
  assert.equal(drawer, false, 'no early drawing script');
  assert.equal(await page.locator('html[data-early-list]').count(), 0);
  assert.match(await page.getByRole('status').first().innerText(), /^加载中/);
  return release;
}

describe('the announcements list before the script', () => {
  before(async () => {
    // The first site's address is known once it has started (useSiteAndBrowser's before).
    elsewhereConfig = writeSiteConfig({ apiAddrs: [site.server.url] });
    elsewhere = await startServer({ SITE_CONFIG: elsewhereConfig.path });
  });
  after(async () => {
    await elsewhere?.stop();
    elsewhereConfig?.remove();
  });

  test('phone, API elsewhere: drawn from the early answer as the script draws it, never back to loading', async (t) => {
    const response = await fetch(`${site.server.url}/v1/bulletin/page?page_index=1&page_size=100`);
    const { list } = (await response.json()) as { list: WireItem[] };
    assert.ok(list.some((item) => item.topup === 1) && list.some((item) => item.topup === 0));
    const expected = list.map((item, index) => ({
      title: item.title,
      date: item.created_at.slice(0, 10),
      pinned: item.topup === 1,
      href: `#/announcement/${item.id}`,
      selected: index === 0,
    }));

    const open = await openPage(site.browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    const release = await holdScript(page);
    await page.goto(`${elsewhere.url}/#/announcements`, untilParsed);
    await page.locator('html[data-early-list]').waitFor({ state: 'attached' });
    assert.equal(await page.locator('[data-loading]').count(), 0);
    assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), '平台公告');
    assert.deepEqual(await rowsOf(page), expected);
    // Less the mark boot-route.ts watches the list's paint by.
    const early = await page
      .locator('nav ul')
      .evaluate((list) => list.innerHTML.replace(' elementtiming="early-list"', ''));

    const loadingSeen = await countLoading(page);
    release();
    await page.locator('html[data-rendered]').waitFor({ state: 'attached' });
    assert.equal(await loadingSeen(), 0);
    // The script's own list, to the markup: the chevron it answers folds it away.
    assert.equal(await page.locator('nav ul').innerHTML(), early);
    await page.getByRole('button', { name: '展开或收起公告列表' }).click();
    assert.equal(await page.locator('nav ul').isVisible(), false);
    assertNoProblems(open);
  });

  test('phone: the first rows are in the page as the script draws them, and never back to loading', async (t) => {
    const response = await fetch(`${site.server.url}/v1/bulletin/page?page_index=1&page_size=100`);
    const { list } = (await response.json()) as { list: WireItem[] };
    const open = await openPage(site.browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const release = await holdScript(page);
    await page.goto(`${site.server.url}/#/announcements`, untilParsed);
    // In the page itself, drawn with no API answer.
    assert.equal(await page.locator('html[data-early-list="/announcements"]').count(), 1);
    assert.equal(await page.locator('[data-loading]').count(), 0);
    const written = await rowsOf(page);
    assert.ok(written.length > 0 && written.length < list.length, `${written.length} of ${list.length} rows`);
    assert.deepEqual(
      written,
      list.slice(0, written.length).map((item, index) => ({
        title: item.title,
        date: item.created_at.slice(0, 10),
        pinned: item.topup === 1,
        href: `#/announcement/${item.id}`,
        selected: index === 0,
      })),
    );
    // Nothing to draw: the API is asked after the first paint (e2e/largest-paint.test.ts), for the script.
    assert.deepEqual(
      requests.filter((url) => url.includes('/early-list-')),
      [],
    );
    const rowsMarkup = (count: number) =>
      page
        .locator('nav li')
        .evaluateAll(
          (items, count) =>
            items.slice(0, count).map((item) => item.outerHTML.replace(' elementtiming="early-list"', '')),
          count,
        );
    const early = await rowsMarkup(written.length);

    const loadingSeen = await countLoading(page);
    release();
    await page.locator('html[data-rendered]').waitFor({ state: 'attached' });
    assert.equal(await loadingSeen(), 0);
    // The script's own list: the same rows to the markup, then the rest of its first page.
    assert.deepEqual(await rowsMarkup(written.length), early);
    assert.equal(await page.locator('nav li').count(), list.length);
    assertNoProblems(open);
  });

  test('phone: a row tapped before the script runs opens that announcement', async (t) => {
    const open = await openPage(site.browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    const release = await holdScript(page);
    const script = page.waitForRequest(entryScript);
    await page.goto(`${site.server.url}/#/announcements`, untilParsed);
    await page.locator('html[data-early-list]').waitFor({ state: 'attached' });
    const row = page.locator('nav li a').nth(2);
    const title = await row.locator('[data-field="title"]').innerText();
    await row.click();
    await script;
    release();
    await page.locator('html[data-rendered]').waitFor({ state: 'attached' });
    await page.getByRole('main').getByRole('heading', { level: 1, name: title }).waitFor();
    assert.equal(await page.locator('nav li').count(), 0);
    assertNoProblems(open);
  });

  test('desktop: the written rows, then the script’s list beside the detail pane', async (t) => {
    const open = await openPage(site.browser, 'desktop', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    const release = await holdScript(page);
    await page.goto(`${site.server.url}/#/announcements`, untilParsed);
    assert.equal(await page.locator('html[data-early-list="/announcements"]').count(), 1);
    const first = await page.locator('nav li [data-field="title"]').first().innerText();
    const loadingSeen = await countLoading(page);
    release();
    const pane = page.getByTestId('announcement-pane');
    await pane.getByRole('heading', { level: 2 }).first().waitFor();
    assert.ok((await pane.innerText()).includes(first), 'the first row’s announcement in the pane');
    assert.equal(await loadingSeen(), 0, 'the list never goes back to loading');
    assertNoProblems(open);
  });

  test('desktop, API elsewhere: the list waits for the script, beside the detail pane', async (t) => {
    const open = await openPage(site.browser, 'desktop', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    const release = await openWithoutEarlyList(page);
    release();
    await page.getByTestId('announcement-pane').getByRole('heading', { level: 2 }).first().waitFor();
    assertNoProblems(open);
  });

  test('phone, API elsewhere: a list in another server’s form is drawn early as the script reads it', async (t) => {
    const open = await openPage(site.browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    // Variants other server builds send (docs/public-api.md#reading-other-server-builds): an envelope, PascalCase fields, a string flag.
    // The early list reads them with the script's own reader (readBulletinList).
    await page.route(listCall, (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          code: 0,
          data: { list: [{ Id: 7, Title: '另一种服务器的公告', Topup: '1', CreatedAt: '2024-05-01 10:00:00' }] },
        }),
      }),
    );
    const expected = [
      { title: '另一种服务器的公告', date: '2024-05-01', pinned: true, href: '#/announcement/7', selected: true },
    ];
    const release = await holdScript(page);
    await page.goto(`${elsewhere.url}/#/announcements`, untilParsed);
    await page.locator('html[data-early-list]').waitFor({ state: 'attached' });
    assert.deepEqual(await rowsOf(page), expected);
    release();
    await page.locator('html[data-rendered]').waitFor({ state: 'attached' });
    assert.deepEqual(await rowsOf(page), expected);
    assertNoProblems(open);
  });
});
