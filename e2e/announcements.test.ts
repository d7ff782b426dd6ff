/** The announcements screens (docs/site.md#screens-and-routes): list and detail, every state,
 * both widths. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertNoProblems, nextFrames, openPage, routeOf, waitForRoute } from './support/page-helpers.js';
import { adminApi } from './support/admin-api.js';
import { startServer, type RunningServer } from './support/server.js';
import { startServerAndBrowser, stopServerAndBrowser } from './support/per-file.js';

let server: RunningServer;
let browser: Browser;
before(async () => ({ server, browser } = await startServerAndBrowser()));
after(() => stopServerAndBrowser(server, browser));

describe('desktop: list and detail side by side', () => {
  test('the first announcement is selected, a click loads another in place, highlighted, pane back at its top', async (t) => {
    const open = await openPage(browser, 'desktop');
    const { page } = open;
    t.after(() => open.close());
    await page.goto(`${server.url}/#/announcements`);
    const list = page.getByRole('navigation', { name: '平台公告' });
    const pane = page.getByTestId('announcement-pane');
    const links = list.getByRole('link');
    await links.first().waitFor();
    assert.equal(await links.count(), 12);
    assert.equal(await links.first().getAttribute('aria-current'), 'true');
    const firstTitle = (await links.first().innerText()).split('\n').find((line) => line.length > 4) ?? '';
    await pane.getByRole('heading', { level: 1, name: firstTitle }).waitFor();

    await pane.evaluate((el) => el.scrollTo({ top: 400 }));
    const third = links.nth(2);
    await third.click();
    const id = /\/announcements\/(\d+)$/.exec(routeOf(page))?.[1];
    assert.ok(id !== undefined, `route is ${routeOf(page)}`);
    assert.equal(await third.getAttribute('aria-current'), 'true');
    assert.equal(await links.first().getAttribute('aria-current'), null);
    await pane.getByText(/^发布日期：\d{4}-\d{2}-\d{2}$/).waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="announcement-pane"]')?.scrollTop === 0);
    assertNoProblems(open);
  });

  test('the chevron folds the list away and back; it starts expanded', async (t) => {
    const { page, close } = await openPage(browser, 'desktop');
    t.after(() => close());
    await page.goto(`${server.url}/#/announcements`);
    const toggle = page.getByRole('button', { name: '展开或收起公告列表' });
    const list = page.getByRole('navigation', { name: '平台公告' }).getByRole('list');
    await list.waitFor();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await list.isVisible(), false);
    await toggle.click();
    await list.waitFor();
  });

  test('empty body, unknown id, and images resolved against the API address', async (t) => {
    const { page, close } = await openPage(browser, 'desktop');
    t.after(() => close());
    await page.goto(`${server.url}/#/announcements/12`);
    await page.getByText('暂无详细内容').waitFor();
    await page.goto(`${server.url}/#/announcements/99999`);
    await page.getByText('未找到该公告').waitFor();
    await page.goto(`${server.url}/#/announcements/11`);
    const image = page.getByTestId('announcement-pane').locator('img').first();
    await image.waitFor();
    assert.match((await image.getAttribute('src')) ?? '', new RegExp(`^${server.url}/v1/file/preview/[0-9a-f]{16}-`));
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="announcement-pane"] img') as HTMLImageElement)?.naturalWidth > 0,
    );
  });

  test('loading shows 加载中... until the list arrives', async (t) => {
    const { page, close } = await openPage(browser, 'desktop');
    t.after(() => close());
    // The list's answer is held until the loading line has been seen.
    let answer = () => {};
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    await page.route('**/v1/bulletin/page*', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${server.url}/#/announcements`);
    await page.getByText('加载中...').waitFor();
    answer();
    await page.getByRole('navigation', { name: '平台公告' }).getByRole('link').first().waitFor();
    // The detail pane loads the selected announcement after the list, with its own brief
    // 加载中...; once both have arrived nothing on the page may still say it is loading.
    await page.getByTestId('announcement-pane').getByRole('heading').first().waitFor();
    await page.getByText('加载中...').waitFor({ state: 'detached', timeout: 5000 });
  });

  test('announcement HTML is cleaned before it is inserted, and titles stay text', async (t) => {
    const { id } = await adminApi<{ id: number }>(server, 'POST', '/bulletins', {
      title: '<img src=x onerror="window.__titleRan=1">标题',
      content:
        '<p id="safe">正文</p><img src="x" onerror="window.__ran=1"><script>window.__ran=2</script><a href="javascript:window.__ran=3">x</a>',
    });
    const { page, close } = await openPage(browser, 'desktop');
    t.after(async () => {
      await close();
      await adminApi(server, 'DELETE', `/bulletins/${id}`);
    });
    await page.goto(`${server.url}/#/announcements/${id}`);
    await page.getByTestId('announcement-pane').getByText('正文').waitFor();
    await page.getByRole('heading', { level: 1, name: '<img src=x onerror="window.__titleRan=1">标题' }).waitFor();
    await page
      .locator('[data-testid="announcement-pane"] a', { hasText: 'x' })
      .click()
      .catch(() => undefined);
    // Whatever the click or a failed image would run has run once every image of the pane that
    // loads has settled (loaded or failed, its error event dispatched; a lazy one out of view
    // loads nothing) and the page has drawn since.
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('[data-testid="announcement-pane"] img')].every(
        (img) => img.complete || img.loading === 'lazy',
      ),
    );
    await nextFrames(page);
    assert.deepEqual(await page.evaluate(() => [(window as never)['__ran'], (window as never)['__titleRan']]), [
      undefined,
      undefined,
    ]);
    assert.equal(await page.locator('[data-testid="announcement-pane"] script').count(), 0);
  });
});

describe('phone: list, then a separate view', () => {
  test('a tap opens /announcement/{id}; the back arrow returns to the list', async (t) => {
    const open = await openPage(browser, 'phone');
    const { page } = open;
    t.after(() => open.close());
    await page.goto(`${server.url}/#/announcements`);
    assert.equal(await page.getByTestId('announcement-pane').count(), 0);
    const item = page.getByRole('navigation', { name: '平台公告' }).getByRole('link').nth(3);
    const title = (await item.innerText()).split('\n')[0] ?? '';
    await item.click();
    assert.match(routeOf(page), /^\/announcement\/\d+$/);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByRole('link', { name: '返回公告列表' }).click();
    await waitForRoute(page, '/announcements');
    assertNoProblems(open);
  });

  test("the list alone does not fetch the detail pane's code; opening an announcement does", async (t) => {
    const { page, close } = await openPage(browser, 'phone');
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    const detailCode = (path: string) => /\/announcement-detail-[\w-]+\.js$/.test(path);
    t.after(() => close());
    await page.goto(`${server.url}/#/announcements`);
    await page.getByRole('navigation', { name: '平台公告' }).getByRole('link').first().waitFor();
    await page.waitForLoadState('networkidle');
    assert.ok(scripts.length > 0, 'the screen loaded its scripts');
    assert.deepEqual(scripts.filter(detailCode), []);

    await page.getByRole('navigation', { name: '平台公告' }).getByRole('link').first().click();
    await page.getByText(/^发布日期：/).waitFor();
    assert.equal(scripts.filter(detailCode).length, 1, scripts.join(' '));
  });

  test('an unknown id in the single view says so', async (t) => {
    const { page, close } = await openPage(browser, 'phone');
    t.after(() => close());
    await page.goto(`${server.url}/#/announcement/424242`);
    await page.getByText('未找到该公告').waitFor();
  });
});

describe('no announcements at all', () => {
  for (const viewport of ['phone', 'desktop'] as const) {
    test(`${viewport}: the list says 暂无公告${viewport === 'desktop' ? ' and the pane asks to choose one' : ''}`, async (t) => {
      const empty = await startServer({ DEMO_CONTENT: '0' });
      const { page, close } = await openPage(browser, viewport);
      t.after(async () => {
        await close();
        await empty.stop();
      });
      await page.goto(`${empty.url}/#/announcements`);
      await page.getByText('暂无公告').waitFor();
      if (viewport === 'desktop') await page.getByText('请选择一条公告').waitFor();
    });
  }
});
