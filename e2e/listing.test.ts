/**
 * The site's listing in China (docs/reach.md#filings-stores-and-verification), as visitors
 * see it with their phones' own user agents: the filing numbers under every screen in every
 * language, before any script and with nothing loaded from elsewhere; the search engines'
 * verification tags; the Android card's store pages, the phone maker's first; HarmonyOS NEXT
 * told apart from HarmonyOS 4 and never recommended the APK.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { adminApi } from './support/admin-api.js';
import { contextOptions } from './support/browser.js';
import { scriptHasTakenOver } from './support/page-helpers.js';
import type { RunningServer } from './support/server.js';
import { startServerAndBrowser, stopServerAndBrowser } from './support/per-file.js';

const ua = {
  harmonyNext:
    'Mozilla/5.0 (Phone; OpenHarmony 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile HuaweiBrowser/5.0.4.300',
  harmony4:
    'Mozilla/5.0 (Linux; Android 12; HarmonyOS; ALN-AL00; HMSCore 6.13.0.302) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0.4844.88 HuaweiBrowser/14.0.5.302 Mobile Safari/537.36',
  xiaomi:
    'Mozilla/5.0 (Linux; U; Android 13; zh-cn; 23049RAD8C Build/TKQ1.221114.001) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/100.0.4896.127 Mobile Safari/537.36 XiaoMi/MiuiBrowser/17.8.70923',
  oppo: 'Mozilla/5.0 (Linux; U; Android 13; zh-CN; PHB110 Build/TP1A.220905.001) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/100.0.4896.58 Mobile Safari/537.36 HeyTapBrowser/40.8.40.1',
  vivo: 'Mozilla/5.0 (Linux; Android 13; V2227A Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/87.0.4280.141 Mobile Safari/537.36 VivoBrowser/13.6.11.0',
  honor:
    'Mozilla/5.0 (Linux; Android 13; HONOR PGT-AN10 Build/HONORPGT-AN10; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/110.0.5481.153 Mobile Safari/537.36',
  pixel:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
};

const stores = {
  appgallery: 'https://appgallery.huawei.com/app/C100000001',
  xiaomi: 'https://app.mi.com/details?id=com.example.chat',
  oppo: 'https://store.heytap.com/app/100000002',
  vivo: 'https://h5.appstore.vivo.com.cn/#/details?appId=100000003',
  honor: 'https://appgallery.honor.com/app/100000004',
  yingyongbao: 'https://sj.qq.com/appdetail/com.example.chat',
  google_play: 'https://play.google.com/store/apps/details?id=com.example.chat',
};
const listing = {
  icp_filing: '京ICP备12345678号-1',
  police_filing: '京公网安备11010502030143号',
  police_badge: true,
  harmonyos_url: '',
  stores,
  verification: {
    baidu: 'codeva-AbC123',
    sogou: 'sg-123',
    so360: 'a360b',
    bing: '0123456789ABCDEF',
    google: 'goog_123-x',
  },
};
const empty = {
  ...listing,
  icp_filing: '',
  police_filing: '',
  police_badge: false,
  stores: Object.fromEntries(Object.keys(stores).map((store) => [store, ''])),
  verification: { baidu: '', sogou: '', so360: '', bing: '', google: '' },
};

let server: RunningServer;
let browser: Browser;

before(async () => ({ server, browser } = await startServerAndBrowser()));
after(() => stopServerAndBrowser(server, browser));

const pageText = async (path: string) => (await fetch(`${server.url}${path}`)).text();

async function visit(userAgent: string, url: string, viewport: 'phone' | 'desktop' = 'phone') {
  const context = await browser.newContext(contextOptions(viewport, { userAgent }));
  const page = await context.newPage();
  const problems: string[] = [];
  const elsewhere: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('request', (sent) => {
    if (!sent.url().startsWith(server.url) && !sent.url().startsWith('data:')) elsewhere.push(sent.url());
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await scriptHasTakenOver(page);
  return { page, problems, elsewhere, close: () => context.close() };
}

/** The cards in screen order, the recommended one marked with a star. */
const cardOrder = (page: Page) =>
  page.$$eval('li[data-platform]', (cards) =>
    cards.map((card) => `${card.dataset['platform'] ?? ''}${card.hasAttribute('data-recommended') ? '*' : ''}`),
  );

/** The Android card's store links, by where they lead, in screen order. */
const storeOrder = (page: Page) =>
  page.$$eval('li[data-platform="android"] nav a', (links) => links.map((link) => link.getAttribute('href')));

describe('nothing set', () => {
  test('the page carries no tag, line or store list: an empty listing costs it nothing', async () => {
    await adminApi(server, 'PUT', '/listing', empty);
    const html = await pageText('/?lang=zh-CN');
    for (const absent of ['data-filings', 'site-stores', 'site-verification', 'msvalidate', 'beian'])
      assert.ok(!html.includes(absent), absent);
  });

  test('HarmonyOS NEXT without an AppGallery page: no card is recommended, and the web version is offered', async (t) => {
    const visited = await visit(ua.harmonyNext, `${server.url}/#/download`);
    t.after(() => visited.close());
    await visited.page.getByText('暂未上架 HarmonyOS NEXT 版').waitFor();
    assert.deepEqual(await cardOrder(visited.page), ['android', 'ios', 'windows', 'mac']);
    assert.equal(await visited.page.getByText('推荐', { exact: true }).count(), 0);
    const web = visited.page.getByRole('note').getByRole('link', { name: '打开网页版' });
    assert.match((await web.getAttribute('href')) ?? '', /^https?:\/\//);
    assert.deepEqual(visited.problems, []);
  });
});

describe('filings and verification set', () => {
  before(async () => {
    await adminApi(server, 'PUT', '/listing', listing);
  });

  test('every language’s page carries the verification tags and the filing line as sent', async () => {
    for (const language of ['zh-CN', 'zh-TW', 'en']) {
      const html = await pageText(`/?lang=${language}`);
      for (const tag of [
        '<meta name="baidu-site-verification" content="codeva-AbC123">',
        '<meta name="sogou_site_verification" content="sg-123">',
        '<meta name="360-site-verification" content="a360b">',
        '<meta name="msvalidate.01" content="0123456789ABCDEF">',
        '<meta name="google-site-verification" content="goog_123-x">',
      ])
        assert.ok(html.split('</head>')[0]?.includes(tag), `${language}: ${tag}`);
      const body = html.split('<body')[1] ?? '';
      assert.match(body, /href="https:\/\/beian\.miit\.gov\.cn\/"[^>]*>京ICP备12345678号-1</, language);
      assert.match(body, /href="https:\/\/beian\.mps\.gov\.cn\/#\/query\/webSearch\?code=11010502030143"/, language);
    }
  });

  test('the filing numbers show under every screen, linked, with the badge from this site', async (t) => {
    // The announcements screens have no footer (docs/site.md#screens-and-routes): the line
    // closes the page there too. Where the footer is checked, the line is under it.
    for (const [path, footer] of [
      ['/', true],
      ['/#/announcements', false],
      ['/?lang=en#/changelog', true],
      ['/?lang=zh-TW#/downloadHelp', false],
    ] as const) {
      const visited = await visit(ua.pixel, `${server.url}${path}`, 'desktop');
      t.after(() => visited.close());
      const line = visited.page.locator('[data-filings]');
      await line.getByRole('link', { name: '京ICP备12345678号-1' }).waitFor();
      const police = line.getByRole('link', { name: '京公网安备11010502030143号' });
      assert.equal(await police.getAttribute('target'), '_blank', path);
      // decode() waits for the bytes, and fails on a picture that cannot load.
      const badge = await police
        .locator('img')
        .evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth));
      assert.ok(badge > 0, `${path}: the badge loads`);
      // Below the footer once it shows.
      const below = async () => {
        await visited.page.locator('footer').waitFor();
        return visited.page.evaluate(() => {
          const footer = document.querySelector('footer')?.getBoundingClientRect();
          const filings = document.querySelector('[data-filings]')?.getBoundingClientRect();
          return footer !== undefined && filings !== undefined && filings.top >= footer.bottom - 1;
        });
      };
      if (footer) assert.ok(await below(), `${path}: the line is under the footer`);
      assert.deepEqual(visited.elsewhere, [], path);
      assert.deepEqual(visited.problems, [], path);
    }
  });

  test('without scripts the line is there too', async (t) => {
    const context = await browser.newContext(contextOptions('phone', { javaScriptEnabled: false }));
    t.after(() => context.close());
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    assert.ok(await page.getByRole('link', { name: '京ICP备12345678号-1' }).isVisible());
  });
});

describe('the Android card’s stores', () => {
  const first: [string, string, string][] = [
    ['Xiaomi', ua.xiaomi, stores.xiaomi],
    ['OPPO', ua.oppo, stores.oppo],
    ['vivo', ua.vivo, stores.vivo],
    ['HONOR', ua.honor, stores.honor],
    ['Huawei on HarmonyOS 4', ua.harmony4, stores.appgallery],
    ['Pixel (no maker store): the listing order', ua.pixel, stores.appgallery],
  ];
  for (const [name, userAgent, expected] of first) {
    test(`${name}: its store first, all seven listed, the APK still there`, async (t) => {
      const visited = await visit(userAgent, `${server.url}/#/download`);
      t.after(() => visited.close());
      const card = visited.page.locator('li[data-platform="android"]');
      await card.getByRole('navigation', { name: '应用商店' }).waitFor();
      const order = await storeOrder(visited.page);
      assert.equal(order.length, 7);
      assert.equal(order[0], expected);
      assert.ok(await card.getByRole('link', { name: '下载 Android' }).isVisible());
      // Android phones, HarmonyOS 4 among them, are still recommended their card.
      assert.equal((await cardOrder(visited.page))[0], 'android*');
      assert.deepEqual(visited.problems, []);
    });
  }

  test('the store names follow the language', async (t) => {
    const visited = await visit(ua.vivo, `${server.url}/?lang=en#/download`);
    t.after(() => visited.close());
    const nav = visited.page.getByRole('navigation', { name: 'App stores' });
    await nav.getByRole('link', { name: 'vivo App Store' }).waitFor();
    assert.ok(await nav.getByRole('link', { name: 'Tencent Myapp (应用宝)' }).isVisible());
  });
});

describe('HarmonyOS NEXT with an AppGallery page', () => {
  const appGallery = 'https://appgallery.huawei.com/app/C100000009';
  before(async () => {
    await adminApi(server, 'PUT', '/listing', { ...listing, harmonyos_url: appGallery });
  });

  test('its card comes first, recommended, leading to AppGallery; the APK is not recommended', async (t) => {
    const visited = await visit(ua.harmonyNext, `${server.url}/#/download`);
    t.after(() => visited.close());
    await visited.page.locator('li[data-platform="harmonyos"]').waitFor();
    assert.deepEqual(await cardOrder(visited.page), ['harmonyos*', 'android', 'ios', 'windows', 'mac']);
    const button = visited.page.getByRole('link', { name: '下载 HarmonyOS NEXT' });
    assert.equal(await button.getAttribute('href'), appGallery);
    assert.equal(await visited.page.getByText('暂未上架').count(), 0);
  });

  test('HarmonyOS 4 keeps the Android card recommended', async (t) => {
    const visited = await visit(ua.harmony4, `${server.url}/#/download`);
    t.after(() => visited.close());
    await visited.page.locator('li[data-platform="harmonyos"]').waitFor();
    assert.equal((await cardOrder(visited.page))[0], 'android*');
  });
});
