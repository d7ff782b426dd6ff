/** The download screen, its host rule, and the iOS tutorial (docs/site.md#the-download-screen,
 * docs/site.md#the-ios-tutorial). */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertNoProblems, holdScript, openPage, scriptHasTakenOver, untilParsed } from './support/page-helpers.js';
import { adminApi } from './support/admin-api.js';
import { repoRoot, startServer, type RunningServer } from './support/server.js';
import { startServerAndBrowser, stopServerAndBrowser } from './support/per-file.js';

const site = JSON.parse(readFileSync(join(repoRoot, 'site.config.json'), 'utf8')) as Record<string, unknown>;
const primaryDomain = String(site.primaryDomain);
let server: RunningServer;
let browser: Browser;
let packages: { OS: string; DownloadURL: string }[];

before(async () => {
  ({ server, browser } = await startServerAndBrowser({}, [
    `--host-resolver-rules=MAP ${primaryDomain} 127.0.0.1, MAP www.${primaryDomain} 127.0.0.1, MAP other.example.test 127.0.0.1`,
  ]));
  packages = (await (await fetch(`${server.url}/v1/common/getInstallPackageAddrs`)).json()) as typeof packages;
});
after(() => stopServerAndBrowser(server, browser));

const packageUrl = (os: string) => packages.find((entry) => entry.OS === os)?.DownloadURL;

describe('download screen off the primary domain', () => {
  for (const viewport of ['phone', 'desktop'] as const) {
    test(`${viewport}: title, subtitle, terms, four cards with minimum versions and the right targets`, async (t) => {
      const open = await openPage(browser, viewport);
      const { page } = open;
      t.after(() => open.close());
      await page.goto(`${server.url}/#/download`);
      await page.getByText('在各种设备上使用').waitFor();
      await page.getByText('安装即表示您同意《服务用户协议》和《隐私政策》').waitFor();
      for (const text of ['Android 10 及以上', 'iOS 12 及以上', 'Windows 7 及以上', 'macOS 10.13 及以上']) {
        await page.getByText(text).waitFor();
      }
      const button = (name: string) => page.getByRole('link', { name: `下载 ${name}` });
      await page.waitForFunction(() => document.querySelectorAll('a[aria-label^="下载 "]').length === 4);
      assert.equal(await button('Android').getAttribute('href'), packageUrl('android'));
      assert.equal(
        await button('iOS').getAttribute('href'),
        `https://apps.apple.com/app/id${String(site.iosAppStoreId)}`,
      );
      assert.equal(await button('iOS').getAttribute('target'), '_blank');
      assert.equal(await button('Windows').getAttribute('href'), packageUrl('windows'));
      assert.equal(await button('Mac').getAttribute('href'), packageUrl('mac'));
      const [download] = await Promise.all([page.waitForEvent('download'), button('Windows').click()]);
      assert.equal(download.suggestedFilename(), 'xingliao-windows-demo.exe');
      assertNoProblems(open);
    });
  }

  test('with the CDN on, package URLs point at the bucket', async (t) => {
    const cdnServer = await startServer();
    await adminApi(cdnServer, 'PUT', '/appconfig', {
      use_cdn: 1,
      common_cdn_bucket_url: 'https://cdn.example.test/bucket',
    });
    const { page, close } = await openPage(browser, 'desktop');
    t.after(async () => {
      await close();
      await cdnServer.stop();
    });
    await page.goto(`${cdnServer.url}/#/download`);
    const mac = page.getByRole('link', { name: '下载 Mac' });
    await mac.waitFor();
    assert.match(
      (await mac.getAttribute('href')) ?? '',
      /^https:\/\/cdn\.example\.test\/bucket\/[0-9a-f]{16}-xingliao-mac-demo\.dmg$/,
    );
  });

  test('Android prefers the edge service URL, in a new tab, when it answers', async (t) => {
    const edge: Server = createServer((_request, response) => {
      response.writeHead(200, {
        'content-type': 'application/json',
        'access-control-allow-origin': '*',
        'access-control-allow-headers': 'os',
      });
      response.end(JSON.stringify({ success: true, data: { url: 'https://edge.example.test/xingliao.apk' } }));
    });
    await new Promise<void>((resolve) => edge.listen(0, '127.0.0.1', resolve));
    const address = edge.address();
    const edgeUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/android`;
    const configPath = join(mkdtempSync(join(tmpdir(), 'site-config-')), 'site.config.json');
    writeFileSync(configPath, JSON.stringify({ ...site, androidEdgeUrl: edgeUrl }));
    const edgeServer = await startServer({ SITE_CONFIG: configPath });
    const { page, close } = await openPage(browser, 'phone');
    t.after(async () => {
      await close();
      await edgeServer.stop();
      edge.close();
    });
    await page.goto(`${edgeServer.url}/#/download`);
    const android = page.getByRole('link', { name: '下载 Android' });
    await page.waitForFunction(
      () => document.querySelector('a[aria-label="下载 Android"]')?.getAttribute('target') === '_blank',
    );
    assert.equal(await android.getAttribute('href'), 'https://edge.example.test/xingliao.apk');
  });
});

describe('the primary domain', () => {
  for (const host of [primaryDomain, `www.${primaryDomain}`]) {
    test(`${host}: only the Android card, downloading the fixed APK; the member centre in the header`, async (t) => {
      const { page, close } = await openPage(browser, 'desktop');
      t.after(() => close());
      await page.goto(`http://${host}:${server.port}/#/download`);
      const android = page.getByRole('link', { name: '下载 Android' });
      await android.waitFor();
      assert.equal(await android.getAttribute('href'), site.androidApkUrl);
      assert.equal(await page.locator('a[aria-label^="下载 "]').count(), 1);
      assert.equal(await page.getByText('iOS 12 及以上').count(), 0);
      const member = page.getByRole('banner').getByRole('link', { name: '会员中心' });
      assert.equal(await member.getAttribute('href'), site.memberCentreUrl);
      assert.equal(await member.getAttribute('target'), '_blank');
    });
  }

  for (const viewport of ['phone', 'desktop'] as const) {
    test(`${viewport}: the member centre is in the first paint on the primary domain, and stays put`, async (t) => {
      for (const [host, shown] of [
        [primaryDomain, true],
        ['other.example.test', false],
      ] as const) {
        const { page, close } = await openPage(browser, viewport, { prerendered: true });
        t.after(() => close());
        const release = await holdScript(page);
        await page.goto(`http://${host}:${server.port}/`);
        const member = page.getByRole('banner').getByRole('link', { name: '会员中心' });
        const nav = page.getByRole('navigation', { name: '主导航' });
        // The bars between the phone's links: one more where the member centre shows.
        const bars = () => nav.getByText('|', { exact: true }).filter({ visible: true }).count();
        assert.equal(await member.count(), shown ? 1 : 0, `${host} before the script`);
        const before = await nav.boundingBox();
        const memberBefore = shown ? await member.boundingBox() : null;
        const barsBefore = await bars();
        assert.equal(barsBefore, viewport === 'phone' ? (shown ? 2 : 1) : 0);

        release();
        await scriptHasTakenOver(page);
        await page.waitForLoadState('networkidle');
        assert.equal(await member.count(), shown ? 1 : 0, `${host} after the script`);
        assert.deepEqual(await nav.boundingBox(), before, `${host}: the header's links did not move`);
        if (shown) {
          assert.deepEqual(await member.boundingBox(), memberBefore);
          assert.equal(await member.getAttribute('href'), site.memberCentreUrl);
        }
        assert.equal(await bars(), barsBefore);
      }
    });
  }

  test('desktop: the first frame of the download screen is the Android card alone there, where the script keeps it', async (t) => {
    for (const [host, platforms] of [
      [primaryDomain, ['android']],
      ['other.example.test', ['android', 'ios', 'windows', 'mac']],
    ] as const) {
      const { page, close } = await openPage(browser, 'desktop', { prerendered: true });
      t.after(() => close());
      const release = await holdScript(page);
      await page.goto(`http://${host}:${server.port}/#/download`, untilParsed);
      const cards = page.locator('li[data-platform]').filter({ visible: true });
      const shown = () => cards.evaluateAll((items) => items.map((item) => item.getAttribute('data-platform')));
      assert.deepEqual((await shown()).sort(), [...platforms].sort(), `${host} before the script`);
      // Where the card stands; its height follows the facts the package list has for it.
      // Found and measured in one task of the page: the early drawing may replace the card at any
      // moment (after the first paint), and a card looked up in one step and measured in the next
      // can be the replaced one, detached, with no box.
      const place = () =>
        page.evaluate(() => {
          const shownCard = [...document.querySelectorAll('li[data-platform="android"]')].find(
            (element) => element.getBoundingClientRect().width > 0,
          );
          const box = shownCard?.getBoundingClientRect();
          return box === undefined ? undefined : { x: box.x, y: box.y, width: box.width };
        });
      const before = await place();
      assert.ok(before !== undefined, `${host}: the Android card is drawn before the script`);

      release();
      await scriptHasTakenOver(page);
      await page.getByRole('link', { name: '下载 Android' }).waitFor();
      await page.waitForLoadState('networkidle');
      assert.deepEqual((await shown()).sort(), [...platforms].sort(), `${host} after the script`);
      assert.deepEqual(await place(), before, `${host}: the Android card did not move`);
    }
  });

  test('another host mapped the same way is not the primary domain', async (t) => {
    const { page, close } = await openPage(browser, 'phone');
    t.after(() => close());
    await page.goto(`http://other.example.test:${server.port}/#/download`);
    await page.getByRole('link', { name: '下载 Mac' }).waitFor();
    assert.equal(await page.getByRole('link', { name: '会员中心' }).count(), 0);
  });
});

describe('iOS tutorial', () => {
  for (const viewport of ['phone', 'desktop'] as const) {
    test(`${viewport}: no header, TestFlight button, start download to the iOS package shown as a link, seven steps, the certificate note`, async (t) => {
      const open = await openPage(browser, viewport);
      const { page } = open;
      t.after(() => open.close());
      await page.goto(`${server.url}/#/downloadHelp`);
      await page.getByRole('heading', { level: 1, name: '星聊下载教程' }).waitFor();
      assert.equal(await page.getByRole('banner').count(), 0);
      const testflight = page.getByRole('link', { name: '获取 TestFlight' });
      assert.equal(await testflight.getAttribute('href'), site.testflightUrl);
      assert.equal(await testflight.getAttribute('target'), '_blank');
      const start = page.getByRole('link', { name: '开始下载' });
      await start.waitFor();
      assert.equal(await start.getAttribute('href'), packageUrl('ios'));
      await page.getByRole('link', { name: packageUrl('ios') ?? '' }).waitFor();
      const steps = [
        '下载 TestFlight',
        '打开链接',
        '点击“开始测试”',
        '点击“接受”',
        '点击“安装”',
        '打开应用，点击“下一步”',
      ];
      for (const step of steps) await page.getByText(step, { exact: false }).first().waitFor();
      assert.equal(await page.locator('ol').nth(1).locator('li img').count(), 7);
      await page.getByText('签名证书自动续期，永不过期').waitFor();
      assertNoProblems(open);
    });
  }
});
