/**
 * docs/public-api.md#errors, the error catalogue, in a real browser: the page is served by the real
 * server, whose site config names one fake API (its only API address) answering what each test
 * chooses. Each catalogue error shows exactly its text, red, with role=alert, in place of the
 * content; the failures that are only logged never break the page.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test, type TestContext } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { contextOptions, launchBrowser, type viewports } from './support/browser.js';
import { nextFrames } from './support/page-helpers.js';
import { repoRoot, startServer, type RunningServer } from './support/server.js';
import {
  colours,
  fakeBulletins,
  fakeImageKey,
  startFakeApi,
  watchPage,
  writeSiteConfig,
  type HttpStub,
  type PageWatch,
} from './support/stubs.js';

type Viewport = keyof typeof viewports;

const productName = (JSON.parse(readFileSync(join(repoRoot, 'site.config.json'), 'utf8')) as { productName: string })
  .productName;
const serverMessage = '服务器内部错误-e2e';
const failure = (status: number) => ({ status, body: { status, msg: serverMessage } });

let browser: Browser;
let server: RunningServer;
let fake: HttpStub;
let config: ReturnType<typeof writeSiteConfig>;

before(async () => {
  fake = await startFakeApi();
  config = writeSiteConfig({ apiAddrs: [fake.url], regionDocumentUrls: [] });
  [browser, server] = await Promise.all([launchBrowser(), startServer({ SITE_CONFIG: config.path })]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await fake?.close();
  config?.remove();
});

beforeEach(() => fake.reset());

interface Visit {
  page: Page;
  watch: PageWatch;
  close(): Promise<void>;
}

async function visit(viewport: Viewport, path: string): Promise<Visit> {
  const context = await browser.newContext(contextOptions(viewport));
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(`${server.url}/#${path}`);
  return { page, watch, close: () => context.close() };
}

/** Runs `body` on a fresh page, closed when test `t` ends, whatever happens. */
async function withVisit(
  t: TestContext,
  viewport: Viewport,
  path: string,
  body: (visit: Visit) => Promise<void>,
): Promise<void> {
  const v = await visit(viewport, path);
  t.after(() => v.close());
  await body(v);
  assert.deepEqual(v.watch.pageErrors, [], 'no uncaught page errors');
}

/** `scope` shows exactly `text` as a red alert, and never the server's error body. */
async function assertAlert(page: Page, scope: Locator, text: string): Promise<void> {
  const alert = scope.getByRole('alert');
  await alert.waitFor({ state: 'visible', timeout: 10_000 });
  assert.equal(await alert.count(), 1, 'one alert');
  assert.equal((await alert.innerText()).trim(), text);
  const colour = await colours(page, '[role="alert"]');
  assert.equal(colour.element, colour.danger, `the alert is painted in --danger (${colour.danger})`);
  assert.notEqual(colour.element, colour.text, 'the alert is not in the normal text colour');
  assert.equal(await page.getByText(serverMessage).count(), 0, 'the server error body is not shown');
}

/** Waits for the site to log `what` as a failure. Fails at once, and says why, if instead the
 * start-up found no API address (its 1 s ping can run out on an overloaded machine), since then
 * the call under test was never made. */
async function loggedFailure(watch: PageWatch, what: string): Promise<void> {
  const noAddress = watch.warned('API initialisation', 15_000).then(() => {
    throw new Error(`start-up found no API address, so "${what}" was never called: ${watch.siteWarnings.join(' | ')}`);
  });
  noAddress.catch(() => undefined);
  await Promise.race([watch.warned(what), noAddress]);
}

const announcementList = (page: Page) => page.getByRole('navigation', { name: '平台公告', exact: true });
const pane = (page: Page) => page.getByTestId('announcement-pane');

async function assertFakeList(page: Page): Promise<void> {
  const links = announcementList(page).getByRole('link');
  await links.first().waitFor({ state: 'visible', timeout: 10_000 });
  assert.equal(await links.count(), fakeBulletins.length);
}

describe('announcement list errors', () => {
  for (const viewport of ['phone', 'desktop'] as const) {
    test(`${viewport}: a list of the wrong shape shows '公告数据格式错误' in place of the list`, async (t) => {
      fake.set({ '/v1/bulletin/page': { status: 200, body: { foo: 1 } } });
      await withVisit(t, viewport, '/announcements', async ({ page }) => {
        await assertAlert(page, page.getByRole('main'), '公告数据格式错误');
        assert.equal(await announcementList(page).count(), 0, 'no list');
        assert.equal(await pane(page).count(), 0, 'no detail pane');
        assert.equal(await page.getByText('暂无公告').count(), 0);
      });
    });
  }

  test("desktop: a failing list call shows '获取公告列表失败' in place of the list", async (t) => {
    fake.set({ '/v1/bulletin/page': failure(500) });
    await withVisit(t, 'desktop', '/announcements', async ({ page }) => {
      await assertAlert(page, page.getByRole('main'), '获取公告列表失败');
      assert.equal(await announcementList(page).count(), 0, 'no list');
      assert.equal(await pane(page).count(), 0, 'no detail pane');
    });
  });
});

describe('announcement detail errors', () => {
  test("desktop: a failing detail call shows '获取公告详情失败' in the detail pane, the list stays", async (t) => {
    fake.set({ '/v1/bulletin/detail': failure(500) });
    await withVisit(t, 'desktop', '/announcements', async ({ page }) => {
      await assertFakeList(page);
      await assertAlert(page, pane(page), '获取公告详情失败');
      assert.equal(await page.getByRole('alert').count(), 1, 'only the pane shows an error');
    });
  });

  for (const viewport of ['phone', 'desktop'] as const) {
    test(`${viewport}: a failing detail call shows '获取公告详情失败' on the single announcement view`, async (t) => {
      fake.set({ '/v1/bulletin/detail': failure(500) });
      await withVisit(t, viewport, '/announcement/1', async ({ page }) => {
        await assertAlert(page, page.getByRole('main'), '获取公告详情失败');
        assert.equal(await page.getByText(fakeBulletins[0].title).count(), 0, 'no article');
        assert.equal(await page.getByRole('link', { name: '返回公告列表' }).count(), 1, 'the back arrow stays');
      });
    });
  }

  test("desktop: an unknown announcement (404) shows the notice '未找到该公告' in the pane, not an error", async (t) => {
    fake.set({ '/v1/bulletin/detail': failure(404) });
    await withVisit(t, 'desktop', '/announcements/2', async ({ page }) => {
      await assertFakeList(page);
      const notice = pane(page).getByText('未找到该公告', { exact: true });
      await notice.waitFor({ state: 'visible', timeout: 10_000 });
      assert.equal(await page.getByRole('alert').count(), 0, 'a notice, not an alert');
      const colour = await colours(page, '[data-testid="announcement-pane"] p');
      assert.notEqual(colour.element, colour.danger, 'the notice is not red');
    });
  });

  test("phone: an unknown id on the single view shows '未找到该公告'", async (t) => {
    await withVisit(t, 'phone', '/announcement/999', async ({ page }) => {
      const notice = page.getByRole('main').getByText('未找到该公告', { exact: true });
      await notice.waitFor({ state: 'visible', timeout: 10_000 });
      assert.equal(await page.getByRole('alert').count(), 0, 'a notice, not an alert');
      assert.ok(
        fake.requests.some((request) => request.method === 'GET' && request.url === '/v1/bulletin/detail?id=999'),
        'the detail of 999 was asked for',
      );
    });
  });
});

describe('page initialisation errors', () => {
  for (const viewport of ['desktop', 'phone'] as const) {
    test(`${viewport}: a route whose code fails to load shows '加载数据失败'; the next route works`, async (t) => {
      const context = await browser.newContext(contextOptions(viewport));
      t.after(() => context.close());
      const page = await context.newPage();
      const watch = watchPage(page);
      let aborted = 0;
      await page.route('**/assets/download-*.js', (route) => {
        aborted += 1;
        return route.abort();
      });
      await page.goto(`${server.url}/#/download`);
      await assertAlert(page, page.locator('body'), '加载数据失败');
      assert.ok(aborted >= 1, 'the download chunk was requested and failed');
      assert.equal(await page.getByRole('heading', { name: `下载${productName}` }).count(), 0, 'no download page');
      await watch.warned('page initialisation');

      await page.goto(`${server.url}/#/`);
      await page.getByRole('heading', { level: 1, name: productName }).waitFor({ timeout: 10_000 });
      assert.equal(await page.getByRole('alert').count(), 0, 'a new route starts without the old error');
      assert.deepEqual(watch.pageErrors, []);
    });
  }
});

describe('failures that are only logged', () => {
  const imagePath = `/v1/file/preview/${fakeImageKey}`;
  const articleImage = (page: Page) => pane(page).locator('article img');

  test('desktop: app config failing turns the CDN off and the page works', async (t) => {
    fake.set({ '/v1/common/appconfig': failure(500) });
    await withVisit(t, 'desktop', '/announcements/3', async ({ page, watch }) => {
      await assertFakeList(page);
      await articleImage(page).waitFor({ state: 'attached', timeout: 10_000 });
      assert.equal(await articleImage(page).getAttribute('src'), `${fake.url}${imagePath}`, 'image from the API');
      await page.waitForFunction(
        () => (document.querySelector('[data-testid="announcement-pane"] article img') as HTMLImageElement)?.complete,
      );
      assert.ok(
        await articleImage(page).evaluate((image) => (image as HTMLImageElement).naturalWidth > 0),
        'the image loaded from the API',
      );
      await loggedFailure(watch, 'app config failed, CDN off');
      assert.equal(await page.getByRole('alert').count(), 0, 'no error shown');
      assert.equal(await page.getByText(serverMessage).count(), 0);
    });
  });

  test('desktop (control): with the CDN on, the same image points at the bucket', async (t) => {
    fake.set({
      '/v1/common/appconfig': {
        status: 200,
        body: { use_cdn: 1, common_cdn_bucket_url: 'https://cdn.example.com/bucket' },
      },
    });
    await withVisit(t, 'desktop', '/announcements/3', async ({ page }) => {
      await articleImage(page).waitFor({ state: 'attached', timeout: 10_000 });
      assert.equal(await articleImage(page).getAttribute('src'), `https://cdn.example.com/bucket/${fakeImageKey}`);
    });
  });

  const strip = (page: Page) => page.locator('section[aria-label="置顶公告"]');

  test('phone (control): the pinned strip shows the pinned announcement', async (t) => {
    await withVisit(t, 'phone', '/', async ({ page }) => {
      await strip(page).waitFor({ state: 'visible', timeout: 10_000 });
      assert.ok((await strip(page).innerText()).includes(fakeBulletins[0].title));
      assert.equal(await strip(page).getByText(fakeBulletins[1].title).count(), 0, 'only pinned items');
    });
  });

  for (const viewport of ['phone', 'desktop'] as const) {
    test(`${viewport}: a failing pinned fetch leaves the strip out; hero and features render`, async (t) => {
      fake.set({ '/v1/bulletin/page': failure(500) });
      await withVisit(t, viewport, '/', async ({ page, watch }) => {
        await loggedFailure(watch, 'pinned announcements');
        await nextFrames(page);
        assert.equal(await strip(page).count(), 0, 'no pinned strip');
        assert.equal(await page.getByText('置顶公告').count(), 0);
        const hero = page.getByRole('heading', { level: 1 });
        assert.equal((await hero.innerText()).trim(), productName);
        assert.equal(await page.locator('#howItWorks li').count(), 6);
        assert.equal(await page.getByRole('alert').count(), 0, 'no error shown');
        assert.equal(await page.getByText(serverMessage).count(), 0);
      });
    });
  }

  const platformNames = ['Android', 'iOS', 'Windows', 'Mac'];
  const cardTitles = async (page: Page) =>
    (await page.getByRole('main').locator('ul > li h2').allInnerTexts()).map((text) => text.trim());

  test('desktop (control): the download cards use the package list', async (t) => {
    await withVisit(t, 'desktop', '/download', async ({ page }) => {
      const android = page.getByRole('link', { name: '下载 Android' });
      await android.waitFor({ timeout: 10_000 });
      assert.equal(await android.getAttribute('href'), 'https://dl.example.com/app.apk');
      assert.deepEqual(await cardTitles(page), platformNames);
    });
  });

  for (const viewport of ['phone', 'desktop'] as const) {
    test(`${viewport}: a failing package list still shows the four cards, with no error text`, async (t) => {
      fake.set({ '/v1/common/getInstallPackageAddrs': failure(500) });
      await withVisit(t, viewport, '/download', async ({ page, watch }) => {
        await page.getByRole('heading', { level: 1, name: `下载${productName}` }).waitFor({ timeout: 10_000 });
        await loggedFailure(watch, 'install packages');
        await nextFrames(page);
        assert.deepEqual(await cardTitles(page), platformNames, 'four cards (not the primary host)');
        for (const text of ['Android 10 及以上', 'iOS 12 及以上', 'Windows 7 及以上', 'macOS 10.13 及以上']) {
          assert.equal(await page.getByText(text, { exact: true }).count(), 1, text);
        }
        assert.equal(await page.getByRole('alert').count(), 0, 'no error shown');
        const text = await page.locator('body').innerText();
        for (const word of ['失败', '错误', serverMessage]) assert.ok(!text.includes(word), `no "${word}" on the page`);
        // Without a package list only the App Store link of iOS can work.
        assert.equal(await page.getByRole('link', { name: '下载 Android' }).count(), 0);
        assert.equal(await page.getByRole('link', { name: /下载 iOS/ }).count(), 1);
      });
    });
  }
});
