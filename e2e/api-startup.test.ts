/**
 * API address initialisation (docs/public-api.md#api-address-failover), in a real browser against
 * the real server: the last used address, then every known one at once, then the region
 * documents, and a site that still works when everything is dead. Every call sends `os: WEB`; a
 * ping succeeds only on 200, within 1 s.
 *
 * Each scenario needs its own site config, so each gets its own real server (fresh database
 * with the demo content). A server that must name itself in its config listens on a port
 * chosen beforehand.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { contextOptions, launchBrowser, type viewports } from './support/browser.js';
import { nextFrames } from './support/page-helpers.js';
import { repoRoot, startServer, type RunningServer } from './support/server.js';
import {
  colours,
  deadAddresses,
  fakeApiRoutes,
  freePorts,
  loopback,
  regionDocumentPath,
  startHangingStub,
  startHttpStub,
  watchPage,
  writeSiteConfig,
  type HttpStub,
  type PageWatch,
} from './support/stubs.js';

type Viewport = keyof typeof viewports;

const keys = {
  apiAddrs: 'chat-site.api-addrs',
  lastApiAddr: 'chat-site.last-api-addr',
} as const;

const siteConfig = JSON.parse(readFileSync(join(repoRoot, 'site.config.json'), 'utf8')) as { productName: string };
const featureTitles = ['消息加密', '万人群聊', '丰富的聊天功能', '自定义表情', '阅后即焚，截屏提醒', '账号安全提醒'];

let browser: Browser;
const cleanups: (() => Promise<void> | void)[] = [];

/** A real server whose site config has these settings; on `port` when given. */
async function siteServer(settings: Record<string, unknown>, port?: number): Promise<RunningServer> {
  const config = writeSiteConfig(settings);
  cleanups.push(() => config.remove());
  const server = await startServer({ SITE_CONFIG: config.path, ...(port === undefined ? {} : { PORT: String(port) }) });
  cleanups.push(() => server.stop());
  return server;
}

interface SeenRequest {
  url: string;
  method: string;
  /** 'fetch' for the site's calls; images in announcement bodies are plain image loads. */
  type: string;
  os: string | undefined;
}

interface Visit {
  page: Page;
  watch: PageWatch;
  /** Every request the page made to a `/v1/` path or a region document, in order (the site's
   * calls and the images of announcement bodies). */
  apiRequests: SeenRequest[];
  close(): Promise<void>;
}

/** A fresh browser context (empty local storage), seeded with a last used API address. */
async function visit(viewport: Viewport, seed: { lastApiAddr?: string } = {}): Promise<Visit> {
  const context = await browser.newContext(contextOptions(viewport));
  if (seed.lastApiAddr !== undefined) {
    // Only on the first document: the site's own writes must survive later navigations.
    await context.addInitScript(
      ([key, value]) => {
        if (sessionStorage.getItem('e2e-seeded') !== null) return;
        sessionStorage.setItem('e2e-seeded', '1');
        localStorage.setItem(key, value);
      },
      [keys.lastApiAddr, seed.lastApiAddr] as const,
    );
  }
  const page = await context.newPage();
  const watch = watchPage(page);
  const apiRequests: SeenRequest[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.includes('/v1/') && !url.endsWith(regionDocumentPath)) return;
    apiRequests.push({ url, method: request.method(), type: request.resourceType(), os: request.headers()['os'] });
  });
  return { page, watch, apiRequests, close: () => context.close() };
}

interface TimedRequest {
  url: string;
  /** The browser's own clock, in ms: when the request started, and when it failed if it did. */
  startedAt: number;
  failedAt?: number;
}

/** The page's GET requests with the browser's timestamps (Playwright gives a failed request no
 * start time, and its events reach the test late), read from the DevTools protocol. */
async function recordNetwork(page: Page): Promise<TimedRequest[]> {
  const session = await page.context().newCDPSession(page);
  const requests = new Map<string, TimedRequest>();
  const timed: TimedRequest[] = [];
  session.on('Network.requestWillBeSent', (event) => {
    if (event.request.method !== 'GET' || requests.has(event.requestId)) return;
    const request: TimedRequest = { url: event.request.url, startedAt: event.timestamp * 1000 };
    requests.set(event.requestId, request);
    timed.push(request);
  });
  session.on('Network.loadingFailed', (event) => {
    const request = requests.get(event.requestId);
    if (request !== undefined) request.failedAt = event.timestamp * 1000;
  });
  await session.send('Network.enable');
  return timed;
}

const storage = (page: Page, key: string) => page.evaluate((name) => localStorage.getItem(name), key);

/** The announcement list on /#/announcements: waits for its links and answers their texts. */
async function listTitles(page: Page, timeout = 10_000): Promise<string[]> {
  const links = page.getByRole('navigation', { name: '平台公告', exact: true }).getByRole('link');
  await links.first().waitFor({ state: 'visible', timeout });
  return links.allInnerTexts();
}

/** The demo announcements' titles as the server lists them. */
async function demoTitles(server: RunningServer): Promise<string[]> {
  const answer = await fetch(`${server.url}/v1/bulletin/page?page_index=1&page_size=100`);
  const body = (await answer.json()) as { list: { title: string }[] };
  return body.list.map((item) => item.title);
}

/** The list shows exactly the real server's announcements, in its order. */
async function assertRealList(page: Page, server: RunningServer, timeout?: number): Promise<void> {
  const expected = await demoTitles(server);
  assert.equal(expected.length, 12, 'the demo content has 12 announcements');
  const shown = await listTitles(page, timeout);
  assert.equal(shown.length, expected.length, `list shows ${shown.length} items, expected ${expected.length}`);
  expected.forEach((title, index) => assert.ok(shown[index]?.includes(title), `item ${index}: "${shown[index]}"`));
}

function assertEveryCallSendsOsWeb(requests: SeenRequest[]): void {
  const calls = requests.filter((request) => request.type === 'fetch' && request.method === 'GET');
  assert.ok(calls.length > 0, 'the page made API calls');
  for (const call of calls) assert.equal(call.os, 'WEB', `${call.url} carries os: WEB`);
}

before(async () => {
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('last used address is dead', () => {
  let server: RunningServer;
  let dead: string;

  before(async () => {
    const ports = await freePorts(['dead', 'own']);
    dead = loopback(ports.dead);
    server = await siteServer({ apiAddrs: [dead, loopback(ports.own)], regionDocumentUrls: [] }, ports.own);
  });

  for (const viewport of ['desktop', 'phone'] as const) {
    test(`${viewport}: the list loads from the other known address, which becomes the last used one`, async (t) => {
      const v = await visit(viewport, { lastApiAddr: dead });
      t.after(() => v.close());
      await v.page.goto(`${server.url}/#/announcements`);
      await assertRealList(v.page, server);
      assert.equal(await storage(v.page, keys.lastApiAddr), server.url);
      const apiAddrs = JSON.parse((await storage(v.page, keys.apiAddrs)) ?? '[]') as string[];
      assert.equal(apiAddrs[0], server.url, 'the address in use heads the stored list');

      assert.equal(v.apiRequests[0]?.url, `${dead}/v1/ping`, 'the last used address is pinged first');
      assert.ok(
        v.apiRequests.some((request) => request.url.startsWith(`${server.url}/v1/bulletin/page`)),
        'the list came from the real server',
      );
      assertEveryCallSendsOsWeb(v.apiRequests);
      assert.deepEqual(v.watch.pageErrors, []);
    });
  }
});

describe('every known address is dead, region documents answer', () => {
  let server: RunningServer;
  let region: HttpStub;

  before(async () => {
    region = await startHttpStub({});
    cleanups.push(() => region.close());
    const ports = await freePorts(['dead1', 'dead2', 'deadRegion', 'own']);
    region.set({
      [regionDocumentPath]: {
        status: 200,
        body: { api_addrs: [{ addr: loopback(ports.own) }], allocator_addrs: [] },
      },
    });
    server = await siteServer(
      {
        apiAddrs: [loopback(ports.dead1), loopback(ports.dead2)],
        regionDocumentUrls: [
          `${loopback(ports.deadRegion)}${regionDocumentPath}`,
          `${region.url}${regionDocumentPath}`,
        ],
      },
      ports.own,
    );
  });

  test('phone: the list loads from the address a region document names, and it is remembered', async (t) => {
    const v = await visit('phone');
    t.after(() => v.close());
    await v.page.goto(`${server.url}/#/announcements`);
    await assertRealList(v.page, server);
    const apiAddrs = JSON.parse((await storage(v.page, keys.apiAddrs)) ?? '[]') as string[];
    assert.ok(apiAddrs.includes(server.url), `api-addrs ${JSON.stringify(apiAddrs)} holds ${server.url}`);
    assert.equal(await storage(v.page, keys.lastApiAddr), server.url);
    assert.ok(
      region.requests.some((request) => request.method === 'GET' && request.path === regionDocumentPath),
      'the region document was fetched',
    );
    assertEveryCallSendsOsWeb(v.apiRequests);
    assert.deepEqual(v.watch.pageErrors, []);
  });
});

describe('everything is dead', () => {
  let server: RunningServer;

  before(async () => {
    const dead = await deadAddresses(['api', 'region']);
    server = await siteServer({ apiAddrs: [dead.api], regionDocumentUrls: [`${dead.region}${regionDocumentPath}`] });
  });

  for (const viewport of ['phone', 'desktop'] as const) {
    test(`${viewport}: the landing page still renders, without pinned strip or page errors`, async (t) => {
      const v = await visit(viewport);
      t.after(() => v.close());
      await v.page.goto(`${server.url}/#/`);
      await v.watch.warned('API initialisation');
      const hero = v.page.getByRole('heading', { level: 1 });
      assert.equal((await hero.innerText()).trim(), siteConfig.productName);
      const tiles = v.page.locator('#howItWorks li');
      assert.equal(await tiles.count(), 6);
      assert.deepEqual(
        (await tiles.locator('h3').allInnerTexts()).map((text) => text.trim()),
        featureTitles,
      );
      // Initialisation has ended with no address: nothing more will come for the strip, and what
      // the page does about that end is drawn within its next frames.
      await nextFrames(v.page);
      assert.equal(await v.page.locator('section[aria-label="置顶公告"]').count(), 0, 'no pinned strip');
      assert.equal(await v.page.getByText('置顶公告').count(), 0);
      assert.equal(await v.page.getByRole('alert').count(), 0, 'the landing page shows no error');

      await v.page.goto(`${server.url}/#/announcements`);
      const alert = v.page.getByRole('alert');
      await alert.waitFor({ state: 'visible', timeout: 5_000 });
      assert.equal((await alert.innerText()).trim(), '获取公告列表失败');
      assert.equal(await v.page.getByRole('navigation', { name: '平台公告', exact: true }).count(), 0);
      const colour = await colours(v.page, '[role="alert"]');
      assert.equal(colour.element, colour.danger, 'the error is painted in --danger');
      assert.notEqual(colour.element, colour.text, 'the error is not in the normal text colour');
      assert.deepEqual(v.watch.pageErrors, [], 'no uncaught page errors');
    });
  }
});

describe('an address that accepts and never answers', () => {
  let server: RunningServer;
  let hanging: Awaited<ReturnType<typeof startHangingStub>>;
  let region: HttpStub;

  before(async () => {
    hanging = await startHangingStub();
    cleanups.push(() => hanging.close());
    region = await startHttpStub({});
    cleanups.push(() => region.close());
    const { own } = await freePorts(['own']);
    region.set({
      [regionDocumentPath]: { status: 200, body: { api_addrs: [{ addr: loopback(own) }], allocator_addrs: [] } },
    });
    server = await siteServer(
      { apiAddrs: [hanging.url], regionDocumentUrls: [`${region.url}${regionDocumentPath}`] },
      own,
    );
  });

  test('desktop: the ping gives up after about 1 s, then the region documents lead to the list', async (t) => {
    const v = await visit('desktop');
    t.after(() => v.close());
    const network = await recordNetwork(v.page);
    const started = Date.now();
    await v.page.goto(`${server.url}/#/announcements`);
    await assertRealList(v.page, server, 8_000);
    const took = Date.now() - started;
    assert.ok(took <= 8_000, `loaded after ${took} ms, expected within 8 s`);
    assert.ok(took >= 950, `loaded after ${took} ms, which cannot include a ~1 s wait`);

    assert.ok(hanging.connections() >= 1, 'the hanging address was tried');
    const ping = network.find((request) => request.url === `${hanging.url}/v1/ping`);
    assert.ok(ping !== undefined, 'the hanging address was pinged');
    assert.ok(ping.failedAt !== undefined, 'the hanging ping was given up');
    const gaveUpAfter = ping.failedAt - ping.startedAt;
    assert.ok(gaveUpAfter >= 900, `the ping was given up after ${gaveUpAfter} ms, expected about 1 s`);
    assert.ok(gaveUpAfter <= 5_000, `the ping was given up after ${gaveUpAfter} ms, expected about 1 s`);
    const regionFetch = network.find((request) => request.url.endsWith(regionDocumentPath));
    assert.ok(regionFetch !== undefined, 'a region document was fetched');
    const waited = regionFetch.startedAt - ping.startedAt;
    assert.ok(waited >= 900, `region documents were fetched ${waited} ms after the ping, expected after ~1 s`);

    assert.equal(await storage(v.page, keys.lastApiAddr), server.url);
    assertEveryCallSendsOsWeb(v.apiRequests);
    assert.deepEqual(v.watch.pageErrors, []);
  });
});

describe('a ping counts only on status 200', () => {
  let server: RunningServer;
  let answers204: HttpStub;
  let answers500: HttpStub;
  let region: HttpStub;

  before(async () => {
    // Both fakes serve their own announcements: had either been chosen, the list would show them.
    answers204 = await startHttpStub({ ...fakeApiRoutes(), '/v1/ping': { status: 204 } });
    answers500 = await startHttpStub({
      ...fakeApiRoutes(),
      '/v1/ping': { status: 500, body: { status: 500, msg: 'down' } },
    });
    region = await startHttpStub({});
    for (const stub of [answers204, answers500, region]) cleanups.push(() => stub.close());
    const { own } = await freePorts(['own']);
    region.set({
      [regionDocumentPath]: { status: 200, body: { api_addrs: [{ addr: loopback(own) }], allocator_addrs: [] } },
    });
    // The real server is named only by the region document, so choosing a fake is never a race.
    server = await siteServer(
      { apiAddrs: [answers204.url, answers500.url], regionDocumentUrls: [`${region.url}${regionDocumentPath}`] },
      own,
    );
  });

  const cases = [
    { viewport: 'phone', last: () => answers204 },
    { viewport: 'desktop', last: () => answers500 },
  ] as const;
  for (const { viewport, last } of cases) {
    test(`${viewport}: addresses answering 204 and 500 are skipped for the real server`, async (t) => {
      answers204.reset();
      answers500.reset();
      const lastUsed = last();
      const v = await visit(viewport, { lastApiAddr: lastUsed.url });
      t.after(() => v.close());
      await v.page.goto(`${server.url}/#/announcements`);
      await assertRealList(v.page, server);
      assert.equal(await storage(v.page, keys.lastApiAddr), server.url);
      assert.equal(v.apiRequests[0]?.url, `${lastUsed.url}/v1/ping`, 'the last used address is pinged first');
      for (const fake of [answers204, answers500]) {
        const gets = fake.requests.filter((request) => request.method === 'GET').map((request) => request.path);
        assert.ok(gets.includes('/v1/ping'), `${fake.url} was pinged`);
        assert.deepEqual(
          gets.filter((path) => path !== '/v1/ping'),
          [],
          `${fake.url} was not used for anything but the ping`,
        );
      }
      assertEveryCallSendsOsWeb(v.apiRequests);
      assert.deepEqual(v.watch.pageErrors, []);
    });
  }
});
