/**
 * The site under failure, in a real browser against the real server: every API address
 * refused, hanging, slow, answering 500 or answering garbage. The static parts (hero, features,
 * download cards, tutorial) still render, docs/public-api.md#errors' messages appear on the
 * announcements screen and nowhere else, no unhandled rejection reaches the console, and once an
 * address comes back the next hash navigation (no reload) brings the data back.
 *
 * The site config names two API addresses and two region documents, all on two switchable
 * stubs in front of the real server, so one server serves every scenario: each test sets the
 * stubs' mode. `refused` closes a stub's port (nothing listens: a dead address); `pass` forwards
 * to the real server.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { contextOptions, launchBrowser, type viewports } from './support/browser.js';
import { nextFrames, waitForRoute } from './support/page-helpers.js';
import { repoRoot, startServer, type RunningServer } from './support/server.js';
import { loopback, regionDocumentPath, writeSiteConfig } from './support/stubs.js';

type Viewport = keyof typeof viewports;

const productName = (JSON.parse(readFileSync(join(repoRoot, 'site.config.json'), 'utf8')) as { productName: string })
  .productName;
const featureTitles = ['消息加密', '万人群聊', '丰富的聊天功能', '自定义表情', '阅后即焚，截屏提醒', '账号安全提醒'];
const platformNames = ['Android', 'iOS', 'Windows', 'Mac'];
const requirements = ['Android 10 及以上', 'iOS 12 及以上', 'Windows 7 及以上', 'macOS 10.13 及以上'];
const tutorialSteps = [
  '下载 TestFlight',
  '打开链接',
  '点击“开始测试”',
  '点击“接受”',
  '点击“安装”',
  '打开应用，点击“下一步”',
  '点击“开始测试”',
];
const messages = { list: '获取公告列表失败', listShape: '公告数据格式错误' } as const;
const lastApiAddrKey = 'chat-site.last-api-addr';

// ---------------------------------------------------------------------------------------------
// A switchable stub: one address whose behaviour a test chooses.

type Mode =
  /** Forwards to the real server. */
  | 'pass'
  /** Nothing listens on the port. */
  | 'refused'
  /** Accepts the connection and the request, never answers. */
  | 'hanging'
  /** Forwards to the real server, every answer (preflights too) 2 s late. */
  | 'slow'
  /** 500 on every path. */
  | 'error500'
  /** 500 on every path but /v1/ping, which answers 200: start-up picks the address. */
  | 'error500ButPing'
  /** 200 on every path with a body that is not JSON (HTML, or JSON cut short). */
  | 'text'
  /** 200 on every path with a random JSON object (never a list, never an error envelope). */
  | 'json';

const slowMs = 2_000;
const corsHeaders = { 'access-control-allow-origin': '*' };

interface Switch {
  url: string;
  set(mode: Mode): Promise<void>;
  close(): Promise<void>;
}

/** A deterministic random source, so a failing run can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function randomValue(random: () => number, depth: number): unknown {
  const kind = Math.floor(random() * (depth >= 3 ? 4 : 6));
  if (kind === 0) return Math.round((random() - 0.5) * 1e6) / 100;
  if (kind === 1) return random().toString(36).slice(2);
  if (kind === 2) return random() < 0.5;
  if (kind === 3) return null;
  if (kind === 4) return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
  return randomObject(random, depth + 1);
}

/** Keys all start with "k", so none is `list`, `data`, `code`, `errCode` or `success`. */
function randomObject(random: () => number, depth: number): Record<string, unknown> {
  const entries = Array.from({ length: 1 + Math.floor(random() * 4) }, () => [
    `k${random().toString(36).slice(2, 7)}`,
    randomValue(random, depth),
  ]);
  return Object.fromEntries(entries) as Record<string, unknown>;
}

async function startSwitch(target: () => string, seed: number): Promise<Switch> {
  let mode: Mode = 'pass';
  let answered = 0;
  const random = seededRandom(seed);
  const sockets = new Set<Socket>();

  const send = (response: ServerResponse, status: number, body: string, contentType: string) => {
    response.writeHead(status, { ...corsHeaders, 'cache-control': 'no-store', 'content-type': contentType });
    response.end(body);
  };

  async function forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const upstream = await fetch(`${target()}${request.url ?? '/'}`, {
        headers: { os: String(request.headers.os ?? '') },
      });
      const body = Buffer.from(await upstream.arrayBuffer());
      response.writeHead(upstream.status, {
        ...corsHeaders,
        'cache-control': 'no-store',
        'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream',
      });
      response.end(body);
    } catch {
      if (!response.headersSent) send(response, 502, '{"status":502,"msg":"upstream failed"}', 'application/json');
    }
  }

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const current = mode;
    if (current === 'hanging') return; // hold the request open, answer nothing
    if (current === 'slow') await delay(slowMs, undefined, { ref: false });
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        ...corsHeaders,
        'access-control-allow-methods': 'GET, HEAD, OPTIONS',
        'access-control-allow-headers': request.headers['access-control-request-headers'] ?? 'os',
        'access-control-max-age': '0',
      });
      response.end();
      return;
    }
    const path = (request.url ?? '/').split('?')[0];
    switch (current) {
      case 'pass':
      case 'slow':
        return forward(request, response);
      case 'error500ButPing':
        if (path === '/v1/ping') return send(response, 200, '{"status":200}', 'application/json');
        return send(response, 500, '{"status":500,"msg":"e2e failure"}', 'application/json');
      case 'error500':
        return send(response, 500, '{"status":500,"msg":"e2e failure"}', 'application/json');
      case 'text':
        answered += 1;
        return answered % 2 === 0
          ? send(response, 200, '<!doctype html><title>502</title><p>Bad gateway</p>', 'text/html; charset=utf-8')
          : send(response, 200, '{"status":200,"list":[{"id":1,', 'application/json');
      case 'json':
        return send(response, 200, JSON.stringify(randomObject(random, 0)), 'application/json');
      case 'refused':
        return; // not reached: the port is closed
    }
  }

  const server = createServer((request, response) => void answer(request, response));
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const listen = (port: number) =>
    new Promise<number>((done, fail) => {
      server.once('error', fail);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', fail);
        done((server.address() as AddressInfo).port);
      });
    });
  const stop = () => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((done) => server.close(() => done()));
  };
  const port = await listen(0);
  let listening = true;
  return {
    url: loopback(port),
    set: async (next) => {
      const previous = mode;
      mode = next;
      if (next === 'refused' && listening) {
        listening = false;
        await stop();
      } else if (next !== 'refused' && !listening) {
        await listen(port);
        listening = true;
      } else if (previous === 'hanging' || previous === 'slow') {
        // Drop what the old mode still holds, so it cannot answer for the new one.
        for (const socket of sockets) socket.destroy();
      }
    },
    close: async () => {
      if (listening) await stop();
      listening = false;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The server, the stubs and the browser.

let browser: Browser;
let server: RunningServer;
let stubA: Switch;
let stubB: Switch;
let config: ReturnType<typeof writeSiteConfig>;

before(async () => {
  stubA = await startSwitch(() => server.url, 0xa11ce);
  stubB = await startSwitch(() => server.url, 0xb0b);
  config = writeSiteConfig({
    apiAddrs: [stubA.url, stubB.url],
    regionDocumentUrls: [`${stubA.url}${regionDocumentPath}`, `${stubB.url}${regionDocumentPath}`],
  });
  [browser, server] = await Promise.all([launchBrowser(), startServer({ SITE_CONFIG: config.path })]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await stubA?.close();
  await stubB?.close();
  config?.remove();
});

const setStubs = (a: Mode, b: Mode = a) => Promise.all([stubA.set(a), stubB.set(b)]);

// ---------------------------------------------------------------------------------------------
// A watched page.

interface PageRecord {
  /** Unhandled rejections the page saw (from an `unhandledrejection` listener). */
  rejections: string[];
  /** performance.now() when the first h1 appeared. */
  heroAt: number | null;
  /** performance.now() of every `[site] API initialisation` warning: start-up ended with no address. */
  initFailedAt: number[];
}

interface Visit {
  page: Page;
  /** Uncaught exceptions, and console errors that speak of unhandled or uncaught errors. */
  unhandled: string[];
  /** How many `[site] <what>:` warnings were logged so far. */
  warnings(what: string): number;
  /** Resolves once at least `count` `[site] <what>:` warnings were logged. */
  waitForWarnings(what: string, count: number, timeoutMs?: number): Promise<void>;
  /** GET requests the page made, by URL. */
  requests: string[];
  record(): Promise<PageRecord>;
  close(): Promise<void>;
}

async function visit(viewport: Viewport, seed: { lastApiAddr?: string } = {}): Promise<Visit> {
  const context = await browser.newContext(contextOptions(viewport));
  await context.addInitScript(
    ([key, lastApiAddr]) => {
      const record = { rejections: [] as string[], heroAt: null as number | null, initFailedAt: [] as number[] };
      (window as unknown as { __e2e: typeof record }).__e2e = record;
      window.addEventListener('unhandledrejection', (event) => record.rejections.push(String(event.reason)));
      new MutationObserver((_records, observer) => {
        if (document.querySelector('h1') === null) return;
        record.heroAt = performance.now();
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
      const warn = console.warn.bind(console);
      console.warn = (...args: unknown[]) => {
        if (String(args[0]).startsWith('[site] API initialisation:')) record.initFailedAt.push(performance.now());
        warn(...args);
      };
      // Only on the first document: the site's own writes must survive later navigations.
      if (lastApiAddr !== '' && sessionStorage.getItem('e2e-seeded') === null) {
        sessionStorage.setItem('e2e-seeded', '1');
        localStorage.setItem(key, lastApiAddr);
      }
    },
    [lastApiAddrKey, seed.lastApiAddr ?? ''] as const,
  );
  const page = await context.newPage();
  const unhandled: string[] = [];
  const siteWarnings: string[] = [];
  const requests: string[] = [];
  page.on('pageerror', (error) => unhandled.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    const text = message.text();
    if (text.startsWith('[site] ')) siteWarnings.push(text);
    if (message.type() === 'error' && /unhandled|uncaught/i.test(text)) unhandled.push(`console: ${text}`);
  });
  page.on('request', (request) => {
    if (request.method() === 'GET') requests.push(request.url());
  });
  const warnings = (what: string) => siteWarnings.filter((text) => text.startsWith(`[site] ${what}:`)).length;
  return {
    page,
    unhandled,
    requests,
    warnings,
    waitForWarnings: async (what, count, timeoutMs = 15_000) => {
      if (warnings(what) >= count) return;
      // Each console message is counted by the listener above before this one hears it.
      await page
        .waitForEvent('console', { predicate: () => warnings(what) >= count, timeout: timeoutMs })
        .catch((error: unknown) => {
          throw new Error(`expected ${count} "[site] ${what}:" warnings, got: ${JSON.stringify(siteWarnings)}`, {
            cause: error,
          });
        });
    },
    record: () => page.evaluate(() => (window as unknown as { __e2e: PageRecord }).__e2e),
    close: () => context.close(),
  };
}

/** Asserts nothing unhandled reached the page or its console. */
async function assertNothingUnhandled(v: Visit): Promise<void> {
  assert.deepEqual(v.unhandled, [], 'no uncaught errors or unhandled rejections in the console');
  assert.deepEqual((await v.record()).rejections, [], 'no unhandledrejection event');
}

/** A hash navigation inside the loaded document (never a reload). */
async function goHash(page: Page, route: string): Promise<void> {
  await page.evaluate((hash) => {
    location.hash = hash;
  }, `#${route}`);
  await waitForRoute(page, route);
}

const pingsTo = (v: Visit, stub: Switch) => v.requests.filter((url) => url === `${stub.url}/v1/ping`).length;

/** Marks the document, so a test can tell a reload (which loses the mark) from a hash navigation. */
const markDocument = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { __e2eMark: string }).__e2eMark = 'first document';
  });
const documentMark = (page: Page) =>
  page.evaluate(() => (window as unknown as { __e2eMark?: string }).__e2eMark ?? 'a new document');

// ---------------------------------------------------------------------------------------------
// What each screen shows.

async function assertLanding(page: Page): Promise<void> {
  const hero = page.getByRole('heading', { level: 1 });
  await hero.waitFor({ timeout: 10_000 });
  assert.equal((await hero.innerText()).trim(), productName, 'the hero shows the product name');
  const tiles = page.locator('#howItWorks li');
  assert.equal(await tiles.count(), 6, 'six feature tiles');
  assert.deepEqual(
    (await tiles.locator('h3').allInnerTexts()).map((text) => text.trim()),
    featureTitles,
  );
}

async function assertDownload(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: `下载${productName}` }).waitFor({ timeout: 10_000 });
  const cards = page.getByRole('main').locator('ul > li');
  assert.deepEqual(
    (await cards.locator('h2').allInnerTexts()).map((text) => text.trim()),
    platformNames,
    'the four download cards',
  );
  for (const text of requirements) assert.equal(await page.getByText(text, { exact: true }).count(), 1, text);
}

async function assertTutorial(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: `${productName}下载教程` }).waitFor({ timeout: 10_000 });
  for (const title of ['第一步：在 App Store 获取 TestFlight 签名工具', '第二步：开始下载']) {
    assert.equal(await page.getByRole('heading', { name: title }).count(), 1, title);
  }
  const steps = page.getByRole('main').locator('ol').nth(1).locator('li');
  assert.equal(await steps.count(), tutorialSteps.length, 'seven illustrated steps');
  const texts = (await steps.allInnerTexts()).map((text) => text.replace(/\s+/g, ''));
  tutorialSteps.forEach((step, index) =>
    assert.ok(
      texts[index]?.endsWith(step.replace(/\s+/g, '')),
      `step ${index + 1}: "${texts[index]}" ends with "${step}"`,
    ),
  );
  assert.equal(await page.getByText('签名证书自动续期，永不过期').count(), 1, 'the certificate note');
}

/** The announcements screen shows exactly `message`, red-alert style, in place of the list. */
async function assertListMessage(page: Page, message: string): Promise<void> {
  const alert = page.getByRole('main').getByRole('alert');
  await alert.waitFor({ state: 'visible', timeout: 15_000 });
  assert.equal(await page.getByRole('alert').count(), 1, 'one alert');
  assert.equal((await alert.innerText()).trim(), message);
  assert.equal(await page.getByRole('navigation', { name: '平台公告', exact: true }).count(), 0, 'no list');
  assert.equal(await page.getByText('e2e failure').count(), 0, 'the error body is not shown');
}

async function assertNoAlert(page: Page, where: string): Promise<void> {
  await nextFrames(page); // a render of the failure the page has heard would show up here
  assert.equal(await page.getByRole('alert').count(), 0, `${where} shows no error`);
}

/** The demo announcements' titles, as the real server lists them. */
async function demoTitles(): Promise<string[]> {
  const answer = await fetch(`${server.url}/v1/bulletin/page?page_index=1&page_size=100`);
  const body = (await answer.json()) as { list: { title: string }[] };
  return body.list.map((item) => item.title);
}

async function assertDemoList(page: Page): Promise<void> {
  const expected = await demoTitles();
  assert.ok(expected.length > 0, 'the demo content has announcements');
  const links = page.getByRole('navigation', { name: '平台公告', exact: true }).getByRole('link');
  // Whichever comes first: the list, or an error that says it will not come.
  await links.first().or(page.getByRole('alert')).first().waitFor({ state: 'visible', timeout: 15_000 });
  const alerts = await page.getByRole('alert').allInnerTexts();
  assert.deepEqual(alerts, [], 'the list shows, not an error');
  const shown = await links.allInnerTexts();
  assert.equal(shown.length, expected.length, `the list shows ${shown.length} items, expected ${expected.length}`);
  expected.forEach((title, index) => assert.ok(shown[index]?.includes(title), `item ${index}: "${shown[index]}"`));
  assert.equal(await page.getByRole('alert').count(), 0, 'no error');
}

// ---------------------------------------------------------------------------------------------

interface Failure {
  name: string;
  mode: Mode;
  /** The ping still answers 200, so start-up picks an address and the data calls fail. Else
   * start-up ends with no address (docs/public-api.md#api-address-failover, step 4) and no data
   * call is made. */
  chosen: boolean;
  listMessage: string;
}

const failures: Failure[] = [
  { name: 'refused (nothing listens)', mode: 'refused', chosen: false, listMessage: messages.list },
  { name: 'hanging (accepts, never answers)', mode: 'hanging', chosen: false, listMessage: messages.list },
  // The ping times out after 1 s (docs/site.md#numbers), so an address answering in 2 s is
  // dead, although the 10 s default timeout of the data calls would have waited for it.
  { name: 'slow (answers after 2 s)', mode: 'slow', chosen: false, listMessage: messages.list },
  { name: '500 on every path', mode: 'error500', chosen: false, listMessage: messages.list },
  { name: '500 on every path but the ping', mode: 'error500ButPing', chosen: true, listMessage: messages.list },
  { name: 'garbage: 200 with text that is not JSON', mode: 'text', chosen: true, listMessage: messages.list },
  { name: 'garbage: 200 with random JSON', mode: 'json', chosen: true, listMessage: messages.listShape },
];

describe('every API address failing: the static parts render, the catalogue message shows', () => {
  for (const failure of failures) {
    // Both widths at once (each in its own browser context), to keep the file quick.
    describe(failure.name, { concurrency: true }, () => {
      before(() => setStubs(failure.mode));
      for (const viewport of ['phone', 'desktop'] as const) {
        test(`${failure.name}, ${viewport}`, async (t) => {
          const v = await visit(viewport);
          t.after(() => v.close());
          const { page } = v;
          // What tells that a screen's start-up and calls are over: with no address, every
          // visit logs the failed start-up (the next navigation starts a new one); with an
          // address, every screen logs its failed call.
          let visits = 0;
          const calls = new Map<string, number>();
          const settled = async (call: string) => {
            visits += 1;
            calls.set(call, (calls.get(call) ?? 0) + 1);
            if (failure.chosen) await v.waitForWarnings(call, calls.get(call) ?? 1);
            else await v.waitForWarnings('API initialisation', visits);
          };

          await page.goto(`${server.url}/#/`);
          await assertLanding(page);
          await settled('pinned announcements');
          await assertLanding(page);
          assert.equal(await page.locator('section[aria-label="置顶公告"]').count(), 0, 'no pinned strip');
          await assertNoAlert(page, 'the landing page');
          if (!failure.chosen) {
            const record = await v.record();
            assert.ok(
              record.heroAt !== null && record.heroAt < (record.initFailedAt[0] ?? 0),
              'hero before start-up ended',
            );
          }

          await goHash(page, '/download');
          await assertDownload(page);
          await settled('install packages');
          await assertDownload(page);
          await assertNoAlert(page, 'the download screen');

          await goHash(page, '/downloadHelp');
          await assertTutorial(page);
          await settled('install packages');
          await assertTutorial(page);
          assert.equal(await page.getByRole('link', { name: '开始下载' }).count(), 0, 'no iOS package link');
          await assertNoAlert(page, 'the tutorial');

          await goHash(page, '/announcements');
          await assertListMessage(page, failure.listMessage);
          await settled('announcement list');

          const pings = [pingsTo(v, stubA), pingsTo(v, stubB)];
          if (failure.chosen) {
            // Start-up pings both known addresses at once and keeps the first that answers; a
            // working connection is never started again on navigation.
            assert.deepEqual(pings, [1, 1], 'one start-up for the four screens');
          } else {
            // Each navigation after a start-up with no address starts a new one.
            assert.deepEqual(pings, [visits, visits], `one start-up per screen (${visits})`);
            const dataCalls = v.requests.filter((url) => /\/v1\/(?!ping)/.test(url));
            assert.deepEqual(dataCalls, [], 'no data call without an address');
          }
          await assertNothingUnhandled(v);
        });
      }
    });
  }
});

describe('recovery on the next navigation, without a reload', () => {
  test('desktop: every address refused, then one comes back; header links lead to the list', async (t) => {
    await setStubs('refused');
    const v = await visit('desktop');
    t.after(() => v.close());
    const { page } = v;
    await page.goto(`${server.url}/#/announcements`);
    await assertListMessage(page, messages.list);
    await markDocument(page);

    await stubA.set('pass');
    const header = page.locator('header').first();
    await header.getByRole('link', { name: '下载', exact: true }).click();
    await waitForRoute(page, '/download');
    await assertDownload(page);
    await header.getByRole('link', { name: '平台公告', exact: true }).click();
    await waitForRoute(page, '/announcements');
    await assertDemoList(page);

    assert.equal(await documentMark(page), 'first document', 'no reload');
    assert.ok(
      v.requests.some((url) => url.startsWith(`${stubA.url}/v1/bulletin/page`)),
      'the list came through the address that came back',
    );
    assert.equal(await page.evaluate((key) => localStorage.getItem(key), lastApiAddrKey), stubA.url);
    await assertNothingUnhandled(v);
  });

  test('phone: every address answering 500, then both heal; back navigation leads to the list', async (t) => {
    await setStubs('error500');
    const v = await visit('phone');
    t.after(() => v.close());
    const { page } = v;
    await page.goto(`${server.url}/#/announcements`);
    await assertListMessage(page, messages.list);
    await markDocument(page);

    await setStubs('pass');
    await goHash(page, '/');
    await assertLanding(page);
    // The new start-up found an address: the landing page gets its pinned strip.
    await page.locator('section[aria-label="置顶公告"]').waitFor({ state: 'visible', timeout: 15_000 });
    await page.goBack();
    await waitForRoute(page, '/announcements');
    await assertDemoList(page);

    assert.equal(await documentMark(page), 'first document', 'no reload');
    await assertNothingUnhandled(v);
  });

  test('desktop: still failing on the next navigation shows the message again, then recovers', async (t) => {
    await setStubs('hanging');
    const v = await visit('desktop');
    t.after(() => v.close());
    const { page } = v;
    await page.goto(`${server.url}/#/announcements`);
    await assertListMessage(page, messages.list);
    await markDocument(page);

    await goHash(page, '/');
    await v.waitForWarnings('API initialisation', 2);
    await goHash(page, '/announcements');
    await assertListMessage(page, messages.list);
    await v.waitForWarnings('API initialisation', 3);

    await setStubs('pass');
    await goHash(page, '/');
    await goHash(page, '/announcements');
    await assertDemoList(page);
    assert.equal(await documentMark(page), 'first document', 'no reload');
    await assertNothingUnhandled(v);
  });

  test('desktop: an address that dies after start-up is dropped; the next navigation uses the other', async (t) => {
    await setStubs('pass');
    const v = await visit('desktop', { lastApiAddr: stubA.url });
    t.after(() => v.close());
    const { page } = v;
    await page.goto(`${server.url}/#/announcements`);
    await assertDemoList(page);
    // The first announcement's detail loads beside the list: all of this screen's calls are over.
    await page.getByTestId('announcement-pane').getByRole('heading', { level: 1 }).waitFor({ timeout: 10_000 });
    assert.ok(
      v.requests.some((url) => url.startsWith(`${stubA.url}/v1/bulletin/page`)),
      'list from A',
    );
    assert.deepEqual([pingsTo(v, stubA), pingsTo(v, stubB)], [1, 0], 'the last used address answered first');
    await markDocument(page);

    await stubA.set('refused');
    const header = page.locator('header').first();
    await header.getByRole('link', { name: productName }).click();
    await waitForRoute(page, '/');
    await assertLanding(page);
    // The landing page's pinned call to A gets no answer: A is marked as lost.
    await v.waitForWarnings('pinned announcements', 1);
    assert.deepEqual([pingsTo(v, stubA), pingsTo(v, stubB)], [1, 0], 'no new start-up while A was fine');

    const listCallsBefore = v.requests.length;
    await header.getByRole('link', { name: '平台公告', exact: true }).click();
    await waitForRoute(page, '/announcements');
    await assertDemoList(page);
    const later = v.requests.slice(listCallsBefore);
    assert.ok(later.includes(`${stubA.url}/v1/ping`), 'the new start-up tried A first');
    assert.ok(
      later.some((url) => url.startsWith(`${stubB.url}/v1/bulletin/page`)),
      'the list came from B',
    );
    assert.ok(!later.some((url) => url.startsWith(`${stubA.url}/v1/bulletin`)), 'nothing more asked of A');
    assert.equal(await page.evaluate((key) => localStorage.getItem(key), lastApiAddrKey), stubB.url);
    assert.equal(await documentMark(page), 'first document', 'no reload');
    await assertNothingUnhandled(v);
  });
});
