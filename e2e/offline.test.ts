/** Offline: the last good announcement list, details and package list stand in when no API
 * address answers; the service worker serves the shell with no network at all, and a newly
 * deployed build's worker takes over. Runs against WEB_ROOT (default web/dist). */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { cachePrefix, writeServiceWorker } from '../web/build/service-worker.js';
import { contextOptions, launchBrowser } from './support/browser.js';
import { scriptHasTakenOver } from './support/page-helpers.js';
import { repoRoot, startServer, type RunningServer } from './support/server.js';

const webRoot = resolve(repoRoot, process.env.WEB_ROOT ?? 'web/dist');
const staleNote = '暂时无法连接服务器，以下是上次保存的内容，可能不是最新的。';
const lastGoodKey = 'chat-site.last-good.v1';

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** The announcements' links in the list (not the list's other links, such as its feed). */
const listLinks = (page: Page) =>
  page.getByRole('navigation', { name: '平台公告', exact: true }).locator('a[href*="#/announcement"]');
const cardLinks = (page: Page) =>
  page
    .getByRole('main')
    .locator('ul > li a[href]')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')));

interface Seen {
  titles: string[];
  detailTitle: string;
  cards: (string | null)[];
}

/** Online: the list with its first detail beside it, then the download cards. No note anywhere. */
async function visitOnline(page: Page, url: string): Promise<Seen> {
  await page.goto(`${url}/#/announcements`);
  await listLinks(page).first().waitFor({ timeout: 15_000 });
  const detailTitle = page.getByTestId('announcement-pane').getByRole('heading', { level: 1 });
  await detailTitle.waitFor({ timeout: 15_000 });
  const seen = { titles: await listLinks(page).allInnerTexts(), detailTitle: (await detailTitle.innerText()).trim() };
  assert.equal(await page.getByText(staleNote).count(), 0, 'no note while online');
  await page.goto(`${url}/#/download`);
  await page.getByRole('main').locator('ul > li a[href^="http"]').first().waitFor({ timeout: 15_000 });
  // The package list arrives after the cards; wait until a card points at a package.
  await page.waitForFunction(() => document.querySelectorAll('main ul > li a[href]').length >= 3);
  const cards = await cardLinks(page);
  assert.equal(await page.getByText(staleNote).count(), 0, 'no note while online');
  return { ...seen, cards };
}

async function assertSavedCopies(page: Page, url: string, seen: Seen): Promise<void> {
  await page.goto(`${url}/#/announcements`);
  await listLinks(page).first().waitFor({ timeout: 20_000 });
  assert.deepEqual(await listLinks(page).allInnerTexts(), seen.titles, 'the saved list');
  const pane = page.getByTestId('announcement-pane');
  await pane.getByRole('heading', { level: 1, name: seen.detailTitle }).waitFor({ timeout: 15_000 });
  // One note for the page: the list's, not a second one in the detail pane beside it.
  await page.getByText(staleNote).first().waitFor();
  assert.equal(await page.getByText(staleNote).count(), 1, 'the quiet note, once');
  assert.equal(await page.getByRole('alert').count(), 0, 'no error');
  // Its pictures are asked of the last address that answered, not of the site's own origin.
  const sources = await pane.locator('img').evaluateAll((images) => images.map((image) => image.getAttribute('src')));
  assert.ok(sources.length > 0, 'the saved announcement has a picture');
  for (const src of sources) assert.match(src ?? '', new RegExp(`^${url}/v1/file/preview/`));

  await page.goto(`${url}/#/download`);
  await page.getByText(staleNote).waitFor({ timeout: 20_000 });
  assert.deepEqual(await cardLinks(page), seen.cards, 'the saved package links');
}

describe('saved copies when no API address answers', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ WEB_ROOT: webRoot });
  });
  after(async () => {
    await server?.stop();
  });

  // No service worker (contextOptions blocks it): these copies are the page's own, not the worker's.
  const newContext = (viewport: 'phone' | 'desktop') => browser.newContext(contextOptions(viewport));

  test('desktop: list, detail and packages come back from the saved copy, with the note', async (t) => {
    const context = await newContext('desktop');
    t.after(() => context.close());
    const page = await context.newPage();
    const seen = await visitOnline(page, server.url);
    await context.route('**/v1/**', (route) => route.abort('connectionrefused'));
    await assertSavedCopies(page, server.url, seen);

    // A detail never read before has no copy: that one still shows the error, under the saved list.
    assert.ok(seen.titles.length > 1, 'the demo content has several announcements');
    await page.goto(`${server.url}/#/announcements`);
    const pane = page.getByTestId('announcement-pane');
    await pane.getByRole('heading', { level: 1, name: seen.detailTitle }).waitFor({ timeout: 15_000 });
    await listLinks(page).nth(1).click();
    const alert = pane.getByRole('alert');
    await alert.waitFor({ timeout: 15_000 });
    assert.equal((await alert.innerText()).trim(), '获取公告详情失败');
    assert.deepEqual(await listLinks(page).allInnerTexts(), seen.titles);
  });

  test('phone: the single view shows the saved detail with the note', async (t) => {
    const context = await newContext('phone');
    t.after(() => context.close());
    const page = await context.newPage();
    await page.goto(`${server.url}/#/announcements`);
    await scriptHasTakenOver(page);
    await listLinks(page).first().click();
    const heading = page.getByRole('main').getByRole('heading', { level: 1 });
    await heading.waitFor({ timeout: 15_000 });
    const title = (await heading.innerText()).trim();
    const route = new URL(page.url()).hash;

    await context.route('**/v1/**', (r) => r.abort('connectionrefused'));
    await page.goto(`${server.url}/${route}`);
    await page.reload();
    await page.getByText(staleNote).waitFor({ timeout: 20_000 });
    assert.equal((await page.getByRole('main').getByRole('heading', { level: 1 }).innerText()).trim(), title);
  });

  test('without a saved copy, or with a broken one, the error stays', async (t) => {
    for (const stored of [undefined, '{not json', '{"announcements":{"savedAt":1,"data":[{"id":7}]}}']) {
      const context = await newContext('desktop');
      t.after(() => context.close());
      if (stored !== undefined) {
        const seed = [lastGoodKey, stored] as const;
        await context.addInitScript(([key, value]) => localStorage.setItem(key, value), seed);
      }
      await context.route('**/v1/**', (route) => route.abort('connectionrefused'));
      const page = await context.newPage();
      await page.goto(`${server.url}/#/announcements`);
      const alert = page.getByRole('main').getByRole('alert');
      await alert.waitFor({ timeout: 20_000 });
      assert.equal((await alert.innerText()).trim(), '获取公告列表失败', `stored: ${stored}`);
      assert.equal(await page.getByText(staleNote).count(), 0);
    }
  });

  test('an answer of the wrong shape is the server speaking: its error shows even with a saved copy', async (t) => {
    const context = await newContext('desktop');
    t.after(() => context.close());
    const page = await context.newPage();
    await visitOnline(page, server.url);
    await context.route('**/v1/bulletin/page*', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"code":0,"data":"nonsense"}' }),
    );
    await page.goto(`${server.url}/#/announcements`);
    const alert = page.getByRole('main').getByRole('alert');
    await alert.waitFor({ timeout: 20_000 });
    assert.equal((await alert.innerText()).trim(), '公告数据格式错误');
  });

  test('the store stays bounded: the oldest answers go first', async (t) => {
    const context = await newContext('desktop');
    t.after(() => context.close());
    // Forty old saved details of 20,000 characters each: more than the store keeps.
    const filler = Object.fromEntries(
      Array.from({ length: 40 }, (_, index) => [
        `announcement:old-${index}`,
        {
          savedAt: 1_000 + index,
          data: {
            id: `old-${index}`,
            title: 'x',
            content: 'y'.repeat(20_000),
            pinned: false,
            createdAt: '2024-01-01 00:00:00',
          },
        },
      ]),
    );
    await context.addInitScript(
      ([key, value]) => {
        if (sessionStorage.getItem('seeded') === null) localStorage.setItem(key, value);
        sessionStorage.setItem('seeded', '1');
      },
      [lastGoodKey, JSON.stringify(filler)] as const,
    );
    const page = await context.newPage();
    await page.goto(`${server.url}/#/announcements`);
    await listLinks(page).first().waitFor({ timeout: 15_000 });
    await page.getByTestId('announcement-pane').getByRole('heading', { level: 1 }).waitFor({ timeout: 15_000 });
    const stored = await page.evaluate((key) => localStorage.getItem(key) ?? '', lastGoodKey);
    const keys = Object.keys(JSON.parse(stored) as Record<string, unknown>);
    assert.ok(stored.length <= 400_000, `stored ${stored.length} characters`);
    assert.ok(keys.length <= 24, `${keys.length} entries`);
    assert.ok(keys.includes('announcements'), 'the newest answer is kept');
    assert.ok(!keys.includes('announcement:old-0'), 'the oldest is dropped');
  });
});

/** A copy of the build in a folder of its own, so a second build can be "deployed" beside it. */
function copyBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chat-site-sw-'));
  cpSync(webRoot, dir, { recursive: true });
  return dir;
}

async function waitForController(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
}

const cacheNames = (page: Page) => page.evaluate(() => caches.keys());

interface RegistrationRecord {
  /** When the page called navigator.serviceWorker.register (performance.now()). */
  __e2eRegisterCalled: Promise<number>;
  /** What that call answered, once it was made. */
  __e2eRegistration: Promise<unknown> | undefined;
}

/** Records when each page of `context` asks for its service worker (web/src/lib/service-worker.ts):
 * the test waits for that call instead of for the seconds the site waits. */
async function recordRegistration(context: BrowserContext): Promise<void> {
  // A string: the test runner's transpiler would wrap a function's inner arrows in a helper
  // the page does not have.
  await context.addInitScript(`(() => {
    const register = ServiceWorkerContainer.prototype.register;
    window.__e2eRegisterCalled = new Promise((called) => {
      ServiceWorkerContainer.prototype.register = function (...args) {
        window.__e2eRegistration = register.apply(this, args);
        called(performance.now());
        return window.__e2eRegistration;
      };
    });
  })()`);
}

/** Polls `check` until it holds (the worker's update runs on its own schedule). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out waiting until ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

describe('service worker', () => {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('the worker is registered once the visit is under way, or at once when the tab is hidden', async (t) => {
    const server = await startServer();
    const context = await browser.newContext(contextOptions('phone', { serviceWorkers: 'allow' }));
    await recordRegistration(context);
    const registered = (page: Page) =>
      page.evaluate(async () => (await navigator.serviceWorker.getRegistration()) !== undefined);
    t.after(async () => {
      await context.close();
      await server.stop();
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/#/`);
    await scriptHasTakenOver(page);
    assert.equal(await registered(page), false, 'not while the page starts');
    const afterLoadMs = await page.evaluate(async () => {
      const loaded = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const at = await (window as unknown as RegistrationRecord).__e2eRegisterCalled;
      await (window as unknown as RegistrationRecord).__e2eRegistration;
      return at - loaded.loadEventEnd;
    });
    assert.equal(await registered(page), true, 'the worker is registered');
    assert.ok(afterLoadMs >= 4_000, `registered ${afterLoadMs} ms after the load event, not 5 s after it`);

    // A visitor who leaves the tab before that gets it at once.
    const second = await context.newPage();
    await second.goto(`${server.url}/#/download`);
    await scriptHasTakenOver(second);
    await second.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.unregister());
    assert.equal(await registered(second), false);
    const { hiddenAfterLoadMs, registeredAfterHiddenMs } = await second.evaluate(async () => {
      const loaded = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const hiddenAt = performance.now();
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
      const record = window as unknown as RegistrationRecord;
      const at = await record.__e2eRegisterCalled;
      await record.__e2eRegistration;
      return {
        hiddenAfterLoadMs: hiddenAt - loaded.loadEventEnd,
        registeredAfterHiddenMs: at - hiddenAt,
      };
    });
    // First whether the test could tell at all: on a busy machine the page's own timer may have
    // asked for the worker before the tab was hidden (and before the test unregistered it).
    assert.ok(hiddenAfterLoadMs < 4_000, `hidden ${hiddenAfterLoadMs} ms after load: too late to tell`);
    assert.ok(registeredAfterHiddenMs >= 0, 'the page asked for its worker before it was hidden: too late to tell');
    assert.equal(await registered(second), true, 'registered once hidden');
    assert.ok(registeredAfterHiddenMs < 1_000, `registered ${registeredAfterHiddenMs} ms after the tab was hidden`);
  });

  test('a repeat visit works with the network cut; API answers are never in its cache', async (t) => {
    const dir = copyBuild();
    dirs.push(dir);
    const server = await startServer({ WEB_ROOT: dir });
    const context: BrowserContext = await browser.newContext(contextOptions('desktop', { serviceWorkers: 'allow' }));
    t.after(async () => {
      await context.close();
      await server.stop();
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/#/`);
    await waitForController(page);
    const seen = await visitOnline(page, server.url);
    const names = await cacheNames(page);
    assert.equal(names.length, 1);
    assert.ok(names[0]?.startsWith(cachePrefix));
    const cached = await page.evaluate(async (name) => {
      const cache = await caches.open(name);
      return (await cache.keys()).map((request) => new URL(request.url).pathname);
    }, names[0] ?? '');
    assert.ok(cached.includes('/'), 'the page');
    assert.ok(
      cached.some((path) => /^\/assets\/index-.*\.js$/.test(path)),
      'the entry script',
    );
    assert.deepEqual(
      cached.filter((path) => /^\/(v1|dl|a)\//.test(path) || /feed/.test(path)),
      [],
      'no API answer, download, share page or feed',
    );

    // The network is gone: the server is stopped and the browser is offline.
    await server.stop();
    await context.setOffline(true);
    await page.goto(`${server.url}/#/`);
    await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 15_000 });
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
    await assertSavedCopies(page, server.url, seen);

    // Languages load from the cache too.
    await page.getByRole('combobox', { name: '语言' }).selectOption('en');
    await page
      .getByRole('heading', { level: 1, name: 'Announcements' })
      .or(page.getByText('Download'))
      .first()
      .waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
  });

  test('a new build deployed: its worker takes over and the old cache is deleted', async (t) => {
    const first = copyBuild();
    const second = copyBuild();
    dirs.push(first, second);
    const index = join(second, 'index.html');
    writeFileSync(
      index,
      readFileSync(index, 'utf8').replace('</head>', '<meta name="build" content="second">\n</head>'),
    );
    const secondCache = writeServiceWorker(second);

    let server = await startServer({ WEB_ROOT: first });
    const port = String(server.port);
    const context = await browser.newContext(contextOptions('phone', { serviceWorkers: 'allow' }));
    t.after(async () => {
      await context.close();
      await server.stop();
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/#/`);
    await waitForController(page);
    const [firstCache] = await cacheNames(page);
    assert.ok(firstCache !== undefined && firstCache !== secondCache);

    await server.stop();
    server = await startServer({ WEB_ROOT: second, PORT: port });
    await page.reload();
    await until(async () => (await cacheNames(page)).join() === secondCache, "only the new build's cache is left");
    assert.match(
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? ''),
      /activat/,
    );

    // Offline again: the page now comes from the new build's cache.
    await server.stop();
    await context.setOffline(true);
    await page.reload();
    await page.locator('meta[name="build"][content="second"]').waitFor({ state: 'attached', timeout: 15_000 });
    await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 15_000 });
  });

  test('the server sends /sw.js uncached, as JavaScript', async (t) => {
    const server = await startServer({ WEB_ROOT: webRoot });
    t.after(() => server.stop());
    for (const encoding of ['identity', 'br']) {
      const response = await fetch(`${server.url}/sw.js`, { headers: { 'accept-encoding': encoding } });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), 'no-cache', encoding);
      assert.match(response.headers.get('content-type') ?? '', /^text\/javascript/, encoding);
      assert.match(await response.text(), /skipWaiting/);
    }
  });
});
