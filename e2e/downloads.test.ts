/**
 * The download screen knows the visitor's device (user agent, client hints, iPadOS asking as a
 * Mac), shows each package's facts with a working copy button, and offers desktop visitors a
 * QR code read back here to its URL; the stable /dl links answer on the real server.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import jsQRModule from 'jsqr';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { contextOptions, type viewports } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { startFakeApi, writeSiteConfig, type HttpStub } from './support/stubs.js';
import { scriptHasTakenOver } from './support/page-helpers.js';
import { startServerAndBrowser, stopServerAndBrowser } from './support/per-file.js';

// jsqr is CommonJS whose types declare an ES default export; under NodeNext the default import is
// module.exports, and its `default` property is the same function, typed.
const jsQR = jsQRModule.default;

const ua = {
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  harmonyNext:
    'Mozilla/5.0 (Phone; OpenHarmony 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile HuaweiBrowser/5.0.4.300',
  harmony4:
    'Mozilla/5.0 (Linux; Android 12; HarmonyOS; ALN-AL00; HMSCore 6.13.0.302) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0.4844.88 HuaweiBrowser/14.0.5.302 Mobile Safari/537.36',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  // Safari on an iPad in its default desktop mode, and Safari on a Mac: the same string.
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  linux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  // Chromium's reduced user agent: the platform is only in the client hints.
  reduced: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
};

interface Device {
  userAgent: string;
  viewport: keyof typeof viewports;
  /** Client hints (navigator.userAgentData), set through the DevTools protocol. */
  hints?: { platform: string; mobile: boolean };
  touchPoints?: number;
}

let server: RunningServer;
let browser: Browser;
let packages: { OS: string; DownloadURL: string; sha256?: string; size?: number; version?: string }[];
const primaryDomain = 'xingliao.example.com';

before(async () => {
  ({ server, browser } = await startServerAndBrowser({}, [`--host-resolver-rules=MAP ${primaryDomain} 127.0.0.1`]));
  packages = (await (await fetch(`${server.url}/v1/common/getInstallPackageAddrs`)).json()) as typeof packages;
});
after(() => stopServerAndBrowser(server, browser));

async function visit(device: Device, url: string, permissions: string[] = []) {
  const touch = (device.touchPoints ?? 0) > 0;
  const context = await browser.newContext(
    contextOptions(device.viewport, { userAgent: device.userAgent, hasTouch: touch, permissions }),
  );
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  const scripts: string[] = [];
  page.on('request', (sent) => scripts.push(new URL(sent.url()).pathname));
  const cdp = await context.newCDPSession(page);
  if (device.hints !== undefined) {
    await cdp.send('Emulation.setUserAgentOverride', {
      userAgent: device.userAgent,
      userAgentMetadata: {
        brands: [{ brand: 'Chromium', version: '126' }],
        platform: device.hints.platform,
        platformVersion: '',
        architecture: '',
        model: '',
        mobile: device.hints.mobile,
      },
    });
  }
  if (touch)
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: device.touchPoints });
  await page.goto(url, { waitUntil: 'networkidle' });
  // The frame's cards are there from the first paint, in no visitor's order: the order is the
  // early cards' or the script's, and the API is asked only after that paint.
  await scriptHasTakenOver(page);
  await page.locator('li[data-platform]').first().waitFor();
  return { page, problems, scripts, close: () => context.close() };
}

/** The cards in screen order, the recommended one marked with a star. */
const cardOrder = (page: Page) =>
  page.$$eval('li[data-platform]', (cards) =>
    cards.map(
      (card) => `${card.getAttribute('data-platform') ?? ''}${card.hasAttribute('data-recommended') ? '*' : ''}`,
    ),
  );

describe('the visitor’s platform comes first', () => {
  const cases: [string, Device, string[]][] = [
    ['Android phone', { userAgent: ua.android, viewport: 'phone' }, ['android*', 'ios', 'windows', 'mac']],
    [
      'HarmonyOS 4 phone (Android underneath)',
      { userAgent: ua.harmony4, viewport: 'phone' },
      ['android*', 'ios', 'windows', 'mac'],
    ],
    // No AppGallery page is set here: nothing is recommended, least of all the APK.
    ['HarmonyOS NEXT phone', { userAgent: ua.harmonyNext, viewport: 'phone' }, ['android', 'ios', 'windows', 'mac']],
    ['iPhone', { userAgent: ua.iphone, viewport: 'phone', touchPoints: 5 }, ['ios*', 'android', 'windows', 'mac']],
    [
      'iPad in desktop mode (a Mac user agent with touch)',
      { userAgent: ua.mac, viewport: 'desktop', touchPoints: 5 },
      ['ios*', 'android', 'windows', 'mac'],
    ],
    ['Mac', { userAgent: ua.mac, viewport: 'desktop' }, ['mac*', 'android', 'ios', 'windows']],
    ['Windows', { userAgent: ua.windows, viewport: 'desktop' }, ['windows*', 'android', 'ios', 'mac']],
    [
      'client hints: Windows',
      { userAgent: ua.reduced, viewport: 'desktop', hints: { platform: 'Windows', mobile: false } },
      ['windows*', 'android', 'ios', 'mac'],
    ],
    [
      'client hints: Android',
      { userAgent: ua.reduced, viewport: 'phone', hints: { platform: 'Android', mobile: true } },
      ['android*', 'ios', 'windows', 'mac'],
    ],
    [
      'client hints: macOS',
      { userAgent: ua.reduced, viewport: 'desktop', hints: { platform: 'macOS', mobile: false } },
      ['mac*', 'android', 'ios', 'windows'],
    ],
    ['Linux: all four, unranked', { userAgent: ua.linux, viewport: 'desktop' }, ['android', 'ios', 'windows', 'mac']],
  ];
  for (const [name, device, order] of cases) {
    test(name, async (t) => {
      const visited = await visit(device, `${server.url}/#/download`);
      t.after(() => visited.close());
      assert.deepEqual(await cardOrder(visited.page), order);
      const badges = await visited.page.getByText('推荐', { exact: true }).count();
      assert.equal(badges, order[0]?.endsWith('*') ? 1 : 0);
      assert.deepEqual(visited.problems, []);
    });
  }

  test('#/download?os=<name> overrides the device; an unknown name does not', async (t) => {
    for (const [query, order] of [
      ['?os=mac', ['mac*', 'android', 'ios', 'windows']],
      ['?os=iPadOS', ['ios*', 'android', 'windows', 'mac']],
      ['?os=symbian', ['android*', 'ios', 'windows', 'mac']],
    ] as const) {
      const visited = await visit({ userAgent: ua.android, viewport: 'phone' }, `${server.url}/#/download${query}`);
      t.after(() => visited.close());
      assert.deepEqual(await cardOrder(visited.page), order, query);
    }
  });
});

/** The text a QR code element holds, read from a screenshot of it. */
async function readQr(page: Page): Promise<string | undefined> {
  const png = PNG.sync.read(await page.getByRole('img', { name: '手机下载页二维码' }).screenshot());
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

describe('QR code for desktop visitors', () => {
  test('desktop: decodes to this site’s download screen, without the ?os override', async (t) => {
    const visited = await visit({ userAgent: ua.windows, viewport: 'desktop' }, `${server.url}/#/download?os=mac`);
    t.after(() => visited.close());
    await visited.page.getByText('用手机扫码下载').waitFor();
    assert.equal(await readQr(visited.page), `${server.url}/#/download`);
    assert.ok(visited.scripts.some((path) => /\/assets\/download-qr-[\w-]+\.js$/.test(path)));
  });

  test('phones and tablets get no QR code and never load its code', async (t) => {
    for (const device of [
      { userAgent: ua.android, viewport: 'phone' },
      { userAgent: ua.mac, viewport: 'desktop', touchPoints: 5 },
    ] satisfies Device[]) {
      const visited = await visit(device, `${server.url}/#/download`);
      t.after(() => visited.close());
      assert.equal(await visited.page.getByRole('img', { name: '手机下载页二维码' }).count(), 0);
      assert.ok(!visited.scripts.some((path) => path.includes('download-qr')), visited.scripts.join(' '));
    }
  });
});

describe('package facts and the copy button', () => {
  const windows = () => packages.find((entry) => entry.OS === 'windows');

  test('each card shows version, size, release date, SHA-256 and release notes; iOS no hash', async (t) => {
    const visited = await visit({ userAgent: ua.linux, viewport: 'desktop' }, `${server.url}/#/download`);
    t.after(() => visited.close());
    const card = visited.page.locator('li[data-platform="windows"]');
    const text = await card.innerText();
    assert.match(text, /版本\s+5\.0\.1/);
    assert.match(text, new RegExp(`大小\\s+${windows()?.size} B`));
    assert.match(text, /发布日期\s+\d{4}-\d{2}-\d{2}/);
    assert.ok(text.includes(windows()?.sha256 ?? 'missing'), text);
    const notes = card.getByRole('link', { name: '更新说明' });
    assert.equal(await notes.getAttribute('href'), 'https://xingliao.example.com/release-notes/5.0.1');
    const ios = await visited.page.locator('li[data-platform="ios"]').innerText();
    assert.match(ios, /版本\s+5\.0\.1/);
    assert.doesNotMatch(ios, /SHA-256|大小/);
  });

  test('copy puts the whole SHA-256 on the clipboard and says so', async (t) => {
    const visited = await visit({ userAgent: ua.windows, viewport: 'desktop' }, `${server.url}/#/download`, [
      'clipboard-read',
      'clipboard-write',
    ]);
    t.after(() => visited.close());
    const card = visited.page.locator('li[data-platform="windows"]');
    await card.getByRole('button', { name: '复制 Windows 安装包的 SHA-256' }).click();
    await card.getByRole('status').getByText('已复制').waitFor();
    const copied = await visited.page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, windows()?.sha256);
    assert.match(copied, /^[0-9a-f]{64}$/);
  });

  test('without the Clipboard API (plain http) copying still works through a selection', async (t) => {
    const context = await browser.newContext(
      contextOptions('desktop', { userAgent: ua.windows, permissions: ['clipboard-read'] }),
    );
    // The page sees no Clipboard API; the test keeps it, to read what the selection copied.
    await context.addInitScript(() => {
      (window as unknown as { testClipboard: Clipboard }).testClipboard = navigator.clipboard;
      Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    });
    const page = await context.newPage();
    t.after(() => context.close());
    await page.goto(`${server.url}/#/download`);
    const card = page.locator('li[data-platform="windows"]');
    const button = card.getByRole('button', { name: '复制 Windows 安装包的 SHA-256' });
    await button.click();
    await card.getByRole('status').getByText('已复制').waitFor();
    assert.equal(await page.evaluate(() => typeof navigator.clipboard), 'undefined');
    const copied = await page.evaluate(() =>
      (window as unknown as { testClipboard: Clipboard }).testClipboard.readText(),
    );
    assert.equal(copied, windows()?.sha256);
    assert.equal(await button.evaluate((element) => element === document.activeElement), true);
  });
});

describe('a server that sends only OS and DownloadURL', () => {
  let api: HttpStub;
  let config: ReturnType<typeof writeSiteConfig>;
  let other: RunningServer;
  before(async () => {
    api = await startFakeApi();
    config = writeSiteConfig({ apiAddrs: [api.url] });
    other = await startServer({ SITE_CONFIG: config.path });
  });
  after(async () => {
    await other?.stop();
    await api?.close();
    config?.remove();
  });

  test('cards show no facts, and never "undefined"', async (t) => {
    const context = await browser.newContext(contextOptions('desktop', { userAgent: ua.mac }));
    const page = await context.newPage();
    t.after(() => context.close());
    await page.goto(`${other.url}/#/download`);
    await page.waitForFunction(
      () =>
        document.querySelector('a[aria-label="下载 Mac"]')?.getAttribute('href') === 'https://dl.example.com/app.dmg',
    );
    const text = await page.locator('main').innerText();
    assert.doesNotMatch(text, /undefined|NaN|版本|大小|SHA-256|更新说明/);
    assert.deepEqual(await cardOrder(page), ['mac*', 'android', 'ios', 'windows']);
  });
});

/** A GET to the real server as if the visitor had typed `host`. */
function getAs(host: string, path: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((done, fail) => {
    const sent = request({ host: '127.0.0.1', port: server.port, path, headers: { host } }, (response) => {
      response.resume();
      done({ status: response.statusCode ?? 0, location: response.headers.location });
    });
    sent.on('error', fail).end();
  });
}

describe('the primary domain', () => {
  test('only the Android card, whatever the device or ?os says; desktop QR leads to its screen', async (t) => {
    const base = `http://${primaryDomain}:${server.port}`;
    for (const [device, query] of [
      [{ userAgent: ua.iphone, viewport: 'phone', touchPoints: 5 }, ''],
      [{ userAgent: ua.mac, viewport: 'desktop' }, '?os=mac'],
    ] satisfies [Device, string][]) {
      const visited = await visit(device, `${base}/#/download${query}`);
      t.after(() => visited.close());
      assert.deepEqual(await cardOrder(visited.page), ['android']);
      if (device.viewport === 'desktop') assert.equal(await readQr(visited.page), `${base}/#/download`);
    }
  });

  test('/dl/android is the fixed APK there; the other platforms are not offered', async () => {
    const apk = await getAs(primaryDomain, '/dl/android');
    assert.equal(apk.status, 302);
    assert.equal(apk.location, 'https://xingliao.example.com/download/xingliao.apk');
    assert.equal((await getAs(primaryDomain, '/dl/ios')).status, 404);
    const elsewhere = await getAs('other.example.test', '/dl/windows');
    assert.equal(elsewhere.status, 302);
    assert.equal(
      elsewhere.location,
      packages.find((entry) => entry.OS === 'windows')?.DownloadURL.replace(server.url, 'http://other.example.test'),
    );
  });
});
