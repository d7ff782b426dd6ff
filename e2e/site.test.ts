/** Every screen and rule of docs/site.md#screens-and-routes, in real Chromium against the
 * real server. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertNoProblems, nextFrames, openPage, trackMoved, waitForRoute } from './support/page-helpers.js';
import { repoRoot, startServer, type RunningServer } from './support/server.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServerAndBrowser, stopServerAndBrowser } from './support/per-file.js';

const site = JSON.parse(readFileSync(join(repoRoot, 'site.config.json'), 'utf8')) as Record<string, string>;
let server: RunningServer;
let browser: Browser;

before(async () => ({ server, browser } = await startServerAndBrowser()));
after(() => stopServerAndBrowser(server, browser));

describe('every route renders at phone and desktop width', () => {
  const routes: [string, string][] = [
    ['/', '星聊'],
    ['/#/download', '下载星聊'],
    ['/#/downloadHelp', '星聊下载教程'],
    ['/#/announcements', '平台公告'],
    ['/#/announcement/11', '星聊 5.0 正式版发布：全新界面，更快更稳'],
    ['/#/announcements/11', '平台公告'],
    ['/#/changelog', '更新日志'],
    ['/#/no-such-route', '页面不存在'],
  ];
  for (const viewport of ['phone', 'desktop'] as const) {
    test(`${viewport}: each route shows its heading, with zh-CN and no console errors`, async (t) => {
      const open = await openPage(browser, viewport);
      t.after(() => open.close());
      for (const [path, heading] of routes) {
        await open.page.goto(`${server.url}${path}`);
        await open.page.getByRole('heading', { level: 1, name: heading }).waitFor();
        assert.equal(await open.page.getAttribute('html', 'lang'), 'zh-CN');
      }
      assertNoProblems(open);
    });
  }

  test('the not-found view has a way home', async (t) => {
    const { page, close } = await openPage(browser, 'phone');
    t.after(() => close());
    await page.goto(`${server.url}/#/nope/deeper`);
    await page.getByRole('link', { name: '返回首页' }).click();
    await waitForRoute(page, '/');
    await page.getByRole('heading', { level: 1, name: '星聊' }).waitFor();
  });
});

describe('header', () => {
  test('desktop: sticky, brand to /, announcements and download links, web client in a new tab, no member centre off the primary domain', async (t) => {
    const { page, close } = await openPage(browser, 'desktop');
    t.after(() => close());
    await page.goto(`${server.url}/#/download`);
    const header = page.locator('header').first();
    assert.equal(await header.evaluate((el) => getComputedStyle(el).position), 'sticky');
    await header.getByRole('link', { name: '平台公告' }).click();
    await waitForRoute(page, '/announcements');
    await header.getByRole('link', { name: '下载' }).click();
    await waitForRoute(page, '/download');
    const web = header.getByRole('link', { name: '登录网页版' });
    assert.equal(await web.getAttribute('href'), site.webClientUrl);
    assert.equal(await web.getAttribute('target'), '_blank');
    assert.equal(await web.getAttribute('rel'), 'noopener noreferrer');
    assert.equal(await header.getByRole('link', { name: '会员中心' }).count(), 0);
    await header.getByRole('link', { name: /星聊/ }).click();
    await waitForRoute(page, '/');
  });

  test('phone: links in one compact row separated by bars, no web client button', async (t) => {
    const { page, close } = await openPage(browser, 'phone');
    t.after(() => close());
    await page.goto(`${server.url}/`);
    const nav = page.getByRole('navigation', { name: '主导航' });
    // What the nav shows beside the language menu: its <select> holds every language's name as
    // option text, but on a phone it is drawn as a globe alone.
    const picker = nav.getByRole('combobox', { name: '语言' });
    const shown = await nav.evaluate((element) =>
      [...element.children]
        .filter((child) => child.querySelector('select') === null && child.checkVisibility())
        .map((child) => (child as HTMLElement).innerText.trim())
        .join(''),
    );
    assert.equal(shown, '平台公告|下载');
    assert.equal(await nav.getByRole('link', { name: '登录网页版' }).isVisible(), false);
    assert.ok(await picker.isVisible());
    const middles = await nav.locator('a, select').evaluateAll((items) =>
      items
        .filter((item) => item.checkVisibility())
        .map((item) => {
          const box = item.getBoundingClientRect();
          return Math.round(box.top + box.height / 2);
        }),
    );
    assert.equal(middles.length, 3, 'two links and the language menu');
    assert.equal(new Set(middles).size, 1, `the links and the language menu share one row: ${middles.join(', ')}`);
  });

  test('every header render scrolls the page to the top', async (t) => {
    const { page, close } = await openPage(browser, 'phone');
    t.after(() => close());
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { name: '为什么选择星聊' }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 1500));
    await page.getByRole('contentinfo').getByRole('link', { name: 'Windows' }).click();
    await waitForRoute(page, '/download');
    await page.waitForFunction(() => window.scrollY === 0);
  });
});

describe('footer', () => {
  test('four columns with every link, external ones in a new tab, brand logo to /, copyright 2024', async (t) => {
    const { page, close } = await openPage(browser, 'desktop');
    t.after(() => close());
    await page.goto(`${server.url}/#/download`);
    const footer = page.locator('footer');
    for (const column of ['移动端', '电脑端', '支持与服务', '联系我们'])
      await footer.getByRole('heading', { name: column }).waitFor();
    for (const name of ['iOS', 'Android', 'Windows', 'Mac']) {
      assert.equal(await footer.getByRole('link', { name, exact: true }).getAttribute('href'), '#/download');
    }
    const external: [string, string][] = [
      ['网页版', site.webClientUrl ?? ''],
      ['服务用户协议', site.agreementUrl ?? ''],
      ['隐私政策', site.privacyUrl ?? ''],
    ];
    for (const [name, href] of external) {
      const link = footer.getByRole('link', { name });
      assert.equal(await link.getAttribute('href'), href);
      assert.equal(await link.getAttribute('target'), '_blank');
      assert.equal(await link.getAttribute('rel'), 'noopener noreferrer');
    }
    assert.equal(
      await footer.getByRole('link', { name: '客服邮箱' }).getAttribute('href'),
      'mailto:support@xingliao.example.com',
    );
    assert.match(await footer.innerText(), /© 2024 星聊 版权所有/);
    await footer.getByRole('link', { name: /星聊/ }).first().click();
    await waitForRoute(page, '/');
  });
});

describe('landing', () => {
  test('hero, pinned strip with MM-DD dates, six features under #howItWorks each with its own image', async (t) => {
    const open = await openPage(browser, 'desktop');
    const { page } = open;
    t.after(() => open.close());
    await page.goto(`${server.url}/`);
    await page.getByText('让世界更近，让沟通更有价值').first().waitFor();
    const strip = page.getByRole('region', { name: '置顶公告' });
    await strip.waitFor();
    const items = strip.getByRole('listitem');
    assert.equal(await items.count(), 2);
    for (const text of await items.allInnerTexts()) assert.match(text, /\n?\d{2}-\d{2}$/);
    const section = page.locator('#howItWorks');
    const titles = await section.getByRole('heading', { level: 3 }).allInnerTexts();
    assert.deepEqual(titles, [
      '消息加密',
      '万人群聊',
      '丰富的聊天功能',
      '自定义表情',
      '阅后即焚，截屏提醒',
      '账号安全提醒',
    ]);
    const images = await section.locator('img').evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src')));
    assert.equal(new Set(images).size, 6);
    await strip.getByRole('link', { name: '更多' }).click();
    await waitForRoute(page, '/announcements');
    assertNoProblems(open);
  });

  test('the pinned strip moves on its own every 3 s, and its items open /announcement/{id}', async (t) => {
    const { page, close } = await openPage(browser, 'phone');
    t.after(() => close());
    await page.goto(`${server.url}/`);
    const strip = page.getByRole('region', { name: '置顶公告' });
    const track = strip.locator('ul');
    await track.waitFor();
    const offset = () => track.evaluate((el) => getComputedStyle(el).transform);
    const movedFrom = (from: string) => trackMoved(track, from);
    const start = await offset();
    const moved = await movedFrom(start);
    assert.notEqual(moved, start, 'the strip advanced');
    assert.notEqual(await movedFrom(moved), moved, 'and advanced again');
    const link = strip.getByRole('listitem').first().getByRole('link');
    const href = await link.getAttribute('href');
    assert.match(href ?? '', /^#\/announcement\/\d+$/);
    await page.goto(`${server.url}/${href}`);
    await page.getByText(/^发布日期：\d{4}-\d{2}-\d{2}$/).waitFor();
  });

  test('no pinned announcements: the strip renders nothing', async (t) => {
    const empty = await startServer({ DEMO_CONTENT: '0' });
    const { page, close } = await openPage(browser, 'phone');
    t.after(async () => {
      await close();
      await empty.stop();
    });
    await page.goto(`${empty.url}/`);
    await page.getByRole('heading', { name: '为什么选择星聊' }).waitFor();
    await page.waitForLoadState('networkidle');
    assert.equal(await page.getByRole('region', { name: '置顶公告' }).count(), 0);
  });
});

describe('scroll-to-top and theme', () => {
  test('the scroll-to-top button appears past 400 px and brings the page back up', async (t) => {
    const { page, close } = await openPage(browser, 'phone');
    t.after(() => close());
    await page.goto(`${server.url}/`);
    // Every render of the header brings the page back to the top (docs/site.md#screens-and-routes):
    // the answers the landing page asks for (config, pinned list) must be in and drawn before the
    // test scrolls, or the render they cause takes the page back up under it.
    await page.waitForLoadState('networkidle');
    await nextFrames(page);
    const button = page.getByRole('button', { name: '回到顶部' });
    await page.evaluate(
      () =>
        new Promise<void>((done) => {
          window.addEventListener('scroll', () => done(), { once: true });
          window.scrollTo(0, 300);
        }),
    );
    // The page has heard the scroll: anything it shows for it is drawn by its next frames.
    await nextFrames(page);
    assert.equal(await button.isVisible(), false);
    await page.evaluate(() => window.scrollTo(0, 900));
    await button.waitFor({ state: 'visible' });
    await button.click();
    await page.waitForFunction(() => window.scrollY === 0);
  });

  test('dark by default, light or system on choice, remembered across visits', async (t) => {
    const { page, close } = await openPage(browser, 'desktop');
    t.after(() => close());
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${server.url}/`);
    const rootClass = () => page.evaluate(() => document.documentElement.className);
    assert.equal(await rootClass(), 'dark');
    const group = page.getByRole('radiogroup', { name: '主题' });
    await group.getByRole('radio', { name: '浅色' }).click();
    assert.equal(await rootClass(), 'light');
    await page.reload();
    assert.equal(await rootClass(), 'light');
    assert.equal(await group.getByRole('radio', { name: '浅色' }).getAttribute('aria-checked'), 'true');
    await group.getByRole('radio', { name: '跟随系统' }).click();
    assert.equal(await rootClass(), 'light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
    await group.getByRole('radio', { name: '深色' }).click();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.reload();
    assert.equal(await rootClass(), 'dark');
  });
});
