/**
 * Feeds, share pages and the share button in Chromium against the real server: the feeds the
 * page links to are well-formed XML (the browser's own parser) and read back by a real feed
 * parser; /a/{id} carries its tags for crawlers that run no script and sends browsers on to the
 * announcement, without a CSP violation; the detail view's share button copies that address,
 * or opens the system share sheet on a phone.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseFeed } from 'feedsmith';
import type { Browser, Page } from 'playwright-core';
import { contextOptions, launchBrowser } from './support/browser.js';
import { assertNoProblems, openPage, waitForRoute } from './support/page-helpers.js';
import { adminApi } from './support/admin-api.js';
import { startServer, type RunningServer } from './support/server.js';

let server: RunningServer;
let browser: Browser;
/** The demo announcements as the API lists them, newest first. */
let demo: { id: number; title: string; created_at: string }[];
const hostileTitle = `</title><script>alert(1)</script> "星聊" 🚀 & more`;
let hostile: number;

before(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  hostile = (
    await adminApi<{ id: number }>(server, 'POST', '/bulletins', {
      title: hostileTitle,
      content: '<p>维护说明：<b>今晚</b>升级。</p><p><img src="https://img.example.com/banner.png" alt=""></p>',
    })
  ).id;
  const page = await fetch(`${server.url}/v1/bulletin/page?page_index=1&page_size=100`);
  demo = ((await page.json()) as { list: typeof demo }).list
    .filter((item) => item.id !== hostile)
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Fetches a feed from inside the page and parses it with the browser's strict XML parser. */
async function fetchXml(page: Page, href: string): Promise<{ text: string; error: string | null; type: string }> {
  return page.evaluate(async (url) => {
    const res = await fetch(url);
    const text = await res.text();
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    return {
      text,
      error: doc.querySelector('parsererror')?.textContent ?? null,
      type: res.headers.get('content-type') ?? '',
    };
  }, href);
}

describe('feeds', () => {
  test('the announcements screen and the page head link the feeds; both are valid and hold every announcement', async (t) => {
    const open = await openPage(browser, 'desktop');
    const { page } = open;
    t.after(() => open.close());
    await page.goto(`${server.url}/#/announcements`);
    const feedLink = page.getByRole('link', { name: '订阅公告（RSS）' });
    await feedLink.waitFor();
    const atomHref = await feedLink.evaluate((a) => (a as HTMLAnchorElement).href);
    assert.equal(atomHref, `${server.url}/feed.atom`);
    const headLinks = await page.evaluate(() =>
      [...document.querySelectorAll('link[rel="alternate"]')].map((link) => [
        link.getAttribute('type'),
        (link as HTMLLinkElement).href,
      ]),
    );
    assert.deepEqual(headLinks, [
      ['application/atom+xml', `${server.url}/feed.atom`],
      ['application/rss+xml', `${server.url}/feed.rss`],
      ['application/atom+xml', `${server.url}/changelog.atom`],
    ]);

    const atom = await fetchXml(page, atomHref);
    assert.equal(atom.error, null, 'well-formed XML');
    assert.equal(atom.type, 'application/atom+xml; charset=utf-8');
    const atomFeed = parseFeed(atom.text);
    assert.equal(atomFeed.format, 'atom');
    const rss = await fetchXml(page, `${server.url}/feed.rss`);
    assert.equal(rss.error, null, 'well-formed XML');
    const rssFeed = parseFeed(rss.text);
    assert.equal(rssFeed.format, 'rss');
    if (atomFeed.format !== 'atom' || rssFeed.format !== 'rss') return;

    const expectedTitles = [hostileTitle, ...demo.map((item) => item.title)];
    assert.deepEqual(
      atomFeed.feed.entries?.map((entry) => entry.title?.value),
      expectedTitles,
    );
    assert.deepEqual(
      rssFeed.feed.items?.map((item) => item.title),
      expectedTitles,
    );
    const withImage = atomFeed.feed.entries?.find((entry) => entry.content?.value?.includes('file/preview/'));
    assert.match(withImage?.content?.value ?? '', new RegExp(`<img src="${server.url}/v1/file/preview/`));
    assertNoProblems(open);
  });
});

describe('share pages', () => {
  test('a crawler that runs no script reads the title, summary, Open Graph, Twitter and JSON-LD tags', async (t) => {
    const context = await browser.newContext({ ...contextOptions('desktop'), javaScriptEnabled: false });
    t.after(() => context.close());
    const page = await context.newPage();
    const res = await page.goto(`${server.url}/a/${hostile}`);
    assert.equal(res?.status(), 200);
    assert.equal(new URL(page.url()).pathname, `/a/${hostile}`, 'stays on the share page');
    assert.equal(await page.title(), `${hostileTitle} - 星聊`);
    const meta = (key: string) => page.locator(`meta[property="${key}"], meta[name="${key}"]`).getAttribute('content');
    assert.equal(await meta('og:title'), hostileTitle);
    assert.equal(await meta('og:description'), '维护说明：今晚升级。');
    assert.equal(await meta('description'), '维护说明：今晚升级。');
    assert.equal(await meta('og:url'), `${server.url}/a/${hostile}`);
    assert.equal(await meta('og:image'), 'https://img.example.com/banner.png');
    assert.equal(await meta('twitter:card'), 'summary_large_image');
    assert.equal(await page.locator('link[rel="canonical"]').getAttribute('href'), `${server.url}/a/${hostile}`);
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '') as Record<
      string,
      unknown
    >;
    assert.equal(jsonLd['@type'], 'NewsArticle');
    assert.equal(jsonLd.headline, hostileTitle);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), hostileTitle);
    const link = page.getByRole('link', { name: '阅读全文' });
    assert.equal(await link.getAttribute('href'), `${server.url}/#/announcement/${hostile}`);
    assert.equal(await page.locator('script:not([type]):not([src])').count(), 0, 'no inline script');
  });

  test('a browser is sent on to the announcement in the site, with no CSP violation', async (t) => {
    const open = await openPage(browser, 'phone');
    const { page } = open;
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    t.after(() => open.close());
    const target = demo[1];
    assert.ok(target !== undefined);
    await page.goto(`${server.url}/a/${target.id}`);
    await waitForRoute(page, `/announcement/${target.id}`);
    assert.equal(new URL(page.url()).pathname, '/');
    await page.getByRole('heading', { level: 1, name: target.title }).waitFor();
    assert.deepEqual(violations, []);
    assertNoProblems(open);
  });

  test('an unknown or malformed id is a 404 page that stays put', async (t) => {
    const open = await openPage(browser, 'desktop');
    t.after(() => open.close());
    for (const bad of ['987654', 'abc']) {
      const res = await open.page.goto(`${server.url}/a/${bad}`);
      assert.equal(res?.status(), 404);
      await open.page.getByRole('heading', { level: 1, name: '未找到该公告' }).waitFor();
      assert.equal(new URL(open.page.url()).pathname, `/a/${bad}`);
    }
  });

  test('robots.txt names the sitemap, and the sitemap lists every share page', async () => {
    const robots = await (await fetch(`${server.url}/robots.txt`)).text();
    assert.match(robots, new RegExp(`^Sitemap: ${server.url}/sitemap\\.xml$`, 'm'));
    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    // Each address in the three languages: simplified Chinese bare, the others with ?lang=.
    const inEach = (path: string) => ['', '?lang=zh-TW', '?lang=en'].map((query) => `${server.url}${path}${query}`);
    assert.deepEqual(
      locs.sort(),
      ['/', ...[hostile, ...demo.map((item) => item.id)].map((id) => `/a/${id}`)].flatMap(inEach).sort(),
    );
  });
});

describe('the share button', () => {
  test('on a computer it copies the share address and says so', async (t) => {
    const open = await openPage(browser, 'desktop');
    const { page, context } = open;
    t.after(() => open.close());
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.goto(`${server.url}/#/announcements/${hostile}`);
    const pane = page.getByTestId('announcement-pane');
    await pane.getByRole('heading', { level: 1, name: hostileTitle }).waitFor();
    await pane.getByRole('button', { name: '分享' }).click();
    await pane.getByRole('status').filter({ hasText: '链接已复制' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), `${server.url}/a/${hostile}`);
    assertNoProblems(open);
  });

  test("it copies the address in the visitor's language, whose share page is in it", async (t) => {
    const open = await openPage(browser, 'desktop');
    const { page, context } = open;
    t.after(() => open.close());
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    for (const [lang, share, copied] of [
      ['zh-TW', '分享', '連結已複製'],
      ['en', 'Share', 'Link copied'],
    ] as const) {
      await page.goto(`${server.url}/?lang=${lang}#/announcements/${hostile}`);
      const pane = page.getByTestId('announcement-pane');
      await pane.getByRole('button', { name: share }).click();
      await pane.getByRole('status').filter({ hasText: copied }).waitFor();
      const address = await page.evaluate(() => navigator.clipboard.readText());
      assert.equal(address, `${server.url}/a/${hostile}?lang=${lang}`);
      assert.match(await (await fetch(address)).text(), new RegExp(`<html lang="${lang}"`));
    }
    assertNoProblems(open);
  });

  test('when the clipboard refuses, the address is shown selected for copying by hand', async (t) => {
    const open = await openPage(browser, 'desktop');
    const { page } = open;
    t.after(() => open.close());
    // A string, not a function: the test runner's transpiler would wrap a function's inner
    // functions in a helper the page does not have.
    await page.addInitScript(
      "Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) } });",
    );
    await page.goto(`${server.url}/#/announcement/${hostile}`);
    await page.getByRole('button', { name: '分享' }).click();
    await page.getByRole('status').filter({ hasText: '无法自动复制' }).waitFor();
    const field = page.getByRole('textbox', { name: '分享链接' });
    assert.equal(await field.inputValue(), `${server.url}/a/${hostile}`);
    assert.ok(
      await field.evaluate(
        (input: HTMLInputElement) => input.selectionEnd === input.value.length && input.selectionStart === 0,
      ),
    );
  });

  test('on a phone it opens the system share sheet with the title and address; closing it copies nothing', async (t) => {
    const open = await openPage(browser, 'phone');
    const { page } = open;
    t.after(() => open.close());
    await page.addInitScript(
      "window.__shares = []; Object.defineProperty(navigator, 'share', { value: (data) => { window.__shares.push(data);" +
        " return Promise.reject(new DOMException('closed', 'AbortError')); } });",
    );
    await page.goto(`${server.url}/#/announcement/${hostile}`);
    assert.ok(await page.evaluate(() => matchMedia('(pointer: coarse)').matches), 'a touch screen');
    await page.getByRole('button', { name: '分享' }).click();
    await page.waitForFunction(() => (window as unknown as { __shares: unknown[] }).__shares.length === 1);
    const shares = await page.evaluate(() => (window as unknown as { __shares: ShareData[] }).__shares);
    assert.deepEqual(shares, [{ title: hostileTitle, url: `${server.url}/a/${hostile}` }]);
    assert.equal(await page.getByRole('status').filter({ hasText: /复制/ }).count(), 0);
    assertNoProblems(open);
  });
});
