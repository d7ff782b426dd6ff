/** The console's releases, settings and numbers screens in Chromium against the real built server
 * (docs/behaviour.md#releases, docs/releases.md#resumable-uploads): a package uploaded in tus
 * chunks with a progress bar and published, rolled back, a forced release and a lowest supported
 * version reaching the update checks (docs/releases.md#update-checks), the CDN checked against a local server,
 * the region document refused in Chinese, and the download numbers as chart, table
 * and CSV link. */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { axeViolations } from './support/axe.js';
import { signedInConsole, startConsoleSite } from './support/console.js';
import { shootBothThemes } from './support/shots.js';
import { repoRoot, type RunningServer } from './support/server.js';
import { stopServerAndBrowser } from './support/per-file.js';

let server: RunningServer;
/** A real minisign signature, as a Tauri .sig file holds it (base64); no key is configured here
 * (server/test/release-signatures.test.ts checks signatures against one). */
const signature =
  'dW50cnVzdGVkIGNvbW1lbnQ6IHNpZ25hdHVyZSBmcm9tIG1pbmlzaWduIHNlY3JldCBrZXkKUlVURG9kL1Y1eEY5eSt0akgzTDIzL1RmMFlxQS9GVy9yU25pa1phR1NYR29heWRnUjJISHdsQlJzdStTMFYzZUxGenRpbktROE1NRTk4RlpYVFlOK3cyOEthSXdrRlVzTEFVPQp0cnVzdGVkIGNvbW1lbnQ6IHRpbWVzdGFtcDoxNzAwMDAwMDAwCkhNUG5GSHNOeDFoSW8rZXV2YlFPUmdUb3VhOHpPOFhkak5uOEJpSk9LV0dVN21mOW1JN3JCU1lGQ1YrQngreGxpVDNBRkRpTHdYRWE3cnQ0a0N0NUF3PT0K';
let browser: Browser;
before(async () => {
  // The CDN stand-in listens on loopback, which the CDN check reaches only when allowed.
  ({ server, browser } = await startConsoleSite([['alice', 'admin', 'alice-password-1']], {
    CDN_CHECK_ALLOW_ADDRESSES: '127.0.0.1',
  }));
});
after(() => stopServerAndBrowser(server, browser));

interface Entry {
  OS: string;
  version?: string;
  sha256?: string;
}
const publicEntry = async (os: string) =>
  ((await (await fetch(`${server.url}/v1/common/getInstallPackageAddrs`)).json()) as Entry[]).find(
    (entry) => entry.OS === os,
  );

const signedInPage = (t: { after: (fn: () => Promise<void>) => void }) =>
  signedInConsole(t, browser, server, 'alice', 'alice-password-1');

describe('the console: releases, settings, numbers', () => {
  test('a package uploaded in chunks, its connection cut half way and resumed, is published at once, then rolled back', async (t) => {
    const { page, problems } = await signedInPage(t);
    const patches: string[] = [];
    const heads: string[] = [];
    page.on('request', (request) => {
      if (!request.url().includes('/v1/admin/uploads/')) return;
      if (request.method() === 'PATCH') patches.push(request.url());
      if (request.method() === 'HEAD') heads.push(request.url());
    });
    // The second chunk's connection is cut once, as a phone's network drops: the client asks the
    // server how far it got (HEAD) and goes on from there.
    let cut = false;
    await page.route('**/v1/admin/uploads/*', async (route) => {
      if (route.request().method() === 'PATCH' && !cut && patches.length === 2) {
        cut = true;
        await route.abort('connectionreset');
        return;
      }
      await route.continue();
    });
    await page.getByRole('link', { name: '版本发布' }).click();
    await page.getByRole('heading', { name: '版本发布', level: 1 }).waitFor();
    const windows = page.getByRole('article', { name: 'Windows' });
    await windows.getByText('5.0.1').first().waitFor();
    assert.deepEqual(await axeViolations(page), []);

    await windows.getByRole('button', { name: '发布新版本' }).click();
    const form = windows.getByRole('form', { name: '发布 Windows 新版本' });
    // Three chunks of at most 8 MiB.
    const file = Buffer.concat([Buffer.from('MZ'), randomBytes(17 * 1024 * 1024)]);
    await form.getByLabel('安装包文件').setInputFiles({
      name: 'xingliao-setup-6.0.0.exe',
      mimeType: 'application/octet-stream',
      buffer: file,
    });
    await form.getByLabel('版本号').fill('6.0.0');
    await form.getByLabel('更新说明').fill('新增深色模式');
    await form.getByLabel('最低系统版本').fill('Windows 10');
    // Both reach the site's download card (docs/site.md#the-download-screen).
    await form.getByText('下载页的卡片显示前三行，更新日志显示全文').waitFor();
    await form.getByText('显示在下载页的卡片上；留空则显示默认要求').waitFor();
    await form.getByRole('button', { name: '发布' }).click();
    const confirm = page.getByRole('alertdialog', { name: '发布 Windows 6.0.0？' });
    await confirm.getByText('所有访客下载的 Windows 安装包将立即从 5.0.1 变为 6.0.0。').waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await confirm.getByRole('button', { name: '发布' }).click();
    await form.getByRole('progressbar', { name: '上传进度' }).waitFor();
    await page.getByText('Windows 6.0.0 已发布', { exact: true }).waitFor({ timeout: 60_000 });
    assert.ok(cut, 'a chunk was cut');
    assert.ok(patches.length >= 4, `uploaded in chunks, one sent again: ${patches.length} PATCH requests`);
    assert.ok(heads.length >= 1, 'the client asked where to resume');
    await windows.getByText('6.0.0', { exact: true }).first().waitFor();
    await windows.getByText('Windows 10', { exact: true }).waitFor();
    const published = await publicEntry('windows');
    assert.equal(published?.version, '6.0.0');
    assert.equal(published?.sha256, createHash('sha256').update(file).digest('hex'));
    // The public download screen offers it.
    const site = await page.context().newPage();
    await site.goto(`${server.url}/#/download`);
    await site.locator('li[data-platform="windows"]').getByText('6.0.0').first().waitFor();
    await site.close();

    await windows.getByText('历史版本（2）').click();
    await windows.getByRole('button', { name: '回滚到此版本：5.0.1' }).click();
    const rollback = page.getByRole('alertdialog', { name: '回滚 Windows 到 5.0.1？' });
    await rollback.getByText('所有访客下载的 Windows 安装包将立即从 6.0.0 变为 5.0.1。').waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await rollback.getByRole('button', { name: '回滚' }).click();
    await page.getByText('Windows 已回滚到 5.0.1', { exact: true }).waitFor();
    assert.equal((await publicEntry('windows'))?.version, '5.0.1');
    // The browser reports the connection the test cut, and nothing else.
    assert.deepEqual(
      problems.filter((text) => !/ERR_CONNECTION_RESET/.test(text)),
      [],
    );
  });

  test('an APK with a version typed wrong is refused, in Chinese; an outside address is published', async (t) => {
    const { page } = await signedInPage(t);
    await page.goto(`${server.url}/admin/releases`);
    const android = page.getByRole('article', { name: 'Android' });
    await android.getByRole('button', { name: '发布新版本' }).click();
    const form = android.getByRole('form', { name: '发布 Android 新版本' });
    await form.getByLabel('安装包文件').setInputFiles(join(repoRoot, 'server/test/fixtures/xingliao-5.1.0.apk'));
    await form.getByLabel('版本号').fill('5.2.0');
    await form.getByRole('button', { name: '发布' }).click();
    await page.getByRole('alertdialog', { name: '发布 Android 5.2.0？' }).getByRole('button', { name: '发布' }).click();
    // What the APK says is said, and put in the field.
    await form.getByText('这个 APK 的版本是 5.1.0，不是 5.2.0：已填入 5.1.0，确认无误后再点“发布”').waitFor();
    assert.equal(await form.getByLabel('版本号').inputValue(), '5.1.0');
    assert.equal((await publicEntry('android'))?.version, '5.0.1');
    assert.deepEqual(await axeViolations(page), []);
    await shootBothThemes(page, 'console-releases', 'apk-version-found');

    await form.getByRole('radio', { name: '外部地址' }).check();
    await form.getByLabel('下载地址').fill('https://dl.example.com/xingliao-6.0.0.apk');
    await form.getByLabel('版本号').fill('6.0.0');
    await form.getByRole('button', { name: '发布' }).click();
    await page.getByRole('alertdialog', { name: '发布 Android 6.0.0？' }).getByRole('button', { name: '发布' }).click();
    await page.getByText('Android 6.0.0 已发布', { exact: true }).waitFor();
    assert.equal((await publicEntry('android'))?.version, '6.0.0');
  });

  test("a lowest supported version and a forced, signed release reach the apps' update checks", async (t) => {
    const { page, problems } = await signedInPage(t);
    await page.goto(`${server.url}/admin/releases`);
    const mac = page.getByRole('article', { name: 'Mac' });
    const minimum = mac.getByRole('form', { name: 'Mac 最低支持版本' });
    await minimum.getByLabel('最低支持版本').fill('5.2.0');
    await minimum.getByRole('button', { name: '保存' }).click();
    await page.getByText('Mac 最低支持版本为 5.2.0', { exact: true }).waitFor();

    await mac.getByRole('button', { name: '发布新版本' }).click();
    const form = mac.getByRole('form', { name: '发布 Mac 新版本' });
    await form.getByRole('radio', { name: '外部地址' }).check();
    await form.getByLabel('下载地址').fill('https://dl.example.com/xingliao-7.0.0.dmg');
    await form.getByLabel('版本号').fill('7.0.0');
    await form.getByLabel('更新说明').fill('必须更新');
    await form.getByLabel(/^强制更新/).check();
    await form.getByLabel('更新签名（Tauri，可选）').fill(signature);
    await form.getByRole('button', { name: '发布' }).click();
    await page.getByRole('alertdialog', { name: '发布 Mac 7.0.0？' }).getByRole('button', { name: '发布' }).click();
    await page.getByText('Mac 7.0.0 已发布', { exact: true }).waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await mac.getByText(/^历史版本/).click();
    await mac.getByText('强制更新', { exact: true }).waitFor();
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(problems, []);

    const check = (await (await fetch(`${server.url}/v1/common/appversion/mac/6.0.0`)).json()) as Record<
      string,
      unknown
    >;
    assert.equal(check.app_version, '7.0.0');
    assert.equal(check.is_force, 1);
    assert.equal(check.update_desc, '必须更新');
    const tauri = (await (await fetch(`${server.url}/v1/common/updater/darwin/6.0.0`)).json()) as Record<
      string,
      unknown
    >;
    assert.equal(tauri.signature, signature);
  });

  test('settings: the CDN check, a region document refused, the site config shown', async (t) => {
    // A CDN that pulls <bucket>/<key> from the server's file/preview/<key>.
    const cdn: Server = createServer((req, res) => {
      const key = /^\/b\/(.+)$/.exec(req.url ?? '')?.[1];
      if (key === undefined) return void res.writeHead(404).end();
      void fetch(`${server.url}/v1/file/preview/${key}`).then(async (origin) => {
        res.writeHead(origin.status).end(Buffer.from(await origin.arrayBuffer()));
      });
    });
    await new Promise<void>((done) => cdn.listen(0, '127.0.0.1', done));
    t.after(() => new Promise<void>((done) => cdn.close(() => done())));
    const { page, problems } = await signedInPage(t);
    await page.getByRole('link', { name: '设置' }).click();
    await page.getByRole('heading', { name: '设置', level: 1 }).waitFor();
    await page.getByLabel('CDN 地址').fill(`http://127.0.0.1:${(cdn.address() as AddressInfo).port}/b`);
    await page.getByRole('button', { name: '检查 CDN' }).click();
    await page.getByText(/^CDN 正常：返回 200，用时 \d+ 毫秒$/).waitFor();
    await page.getByLabel('CDN 地址').fill('http://127.0.0.1:1/b');
    await page.getByRole('button', { name: '检查 CDN' }).click();
    await page.getByText(/^CDN 没有响应：/).waitFor();

    await page.getByLabel('API 地址（每行一个）').fill('');
    await page.getByRole('button', { name: '保存区域文件' }).click();
    await page.getByText('保存失败：API 地址至少要有 1 项', { exact: true }).waitFor();
    await page.getByLabel('API 地址（每行一个）').fill('https://a.example.com\nhttps://b.example.com');
    await page.getByRole('button', { name: '保存区域文件' }).click();
    await page.getByText('区域文件已保存', { exact: true }).waitFor();

    await page.getByText(/来自文件 .*site\.config\.json/).waitFor();
    await page.getByLabel('站点配置内容').getByText('"productName"').waitFor();
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(
      problems,
      ['Failed to load resource: the server responded with a status of 400 (Bad Request)'],
      'only the refused region document',
    );
  });

  test('numbers: a chart and a table of downloads per day, 7, 30 or 90 days, and the CSV export', async (t) => {
    const browserUa = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120 Safari/537.36';
    // Two browsers on Android (a client counts once a day), one on the Mac.
    const visits: [string, string][] = [
      ['android', browserUa],
      ['android', `${browserUa} Edg/120`],
      ['mac', browserUa],
    ];
    for (const [os, ua] of visits) {
      await fetch(`${server.url}/dl/${os}`, { redirect: 'manual', headers: { 'user-agent': ua } });
    }
    await fetch(`${server.url}/dl/android`, { redirect: 'manual', headers: { 'user-agent': 'Googlebot/2.1' } });
    const weChat = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) MicroMessenger/8.0.43(0x18002b2d)';
    for (const event of ['visit', 'visit', 'guide'])
      await fetch(`${server.url}/dl/in-app/${event}`, { method: 'POST', headers: { 'user-agent': weChat } });
    const { page, problems } = await signedInPage(t);
    await page.getByRole('link', { name: '数据' }).click();
    await page.getByRole('heading', { name: '下载数据' }).waitFor();
    await page.getByText(/共 3 次下载/).waitFor();
    await page.getByText(/App 内置浏览器的访问 2 次，其中显示“在浏览器中打开”引导 1 次/).waitFor();
    await page.locator('canvas').first().waitFor();
    const rows = page.getByRole('table', { name: '每天各平台下载次数' }).locator('tbody tr');
    assert.equal(await rows.count(), 7);
    // Android, iOS, Windows, Mac, HarmonyOS NEXT, then the day's total.
    assert.deepEqual(await rows.first().locator('td').allTextContents(), ['2', '0', '0', '1', '0', '3']);
    const csv = page.getByRole('link', { name: '导出 CSV' });
    assert.match((await csv.getAttribute('href')) ?? '', /\/v1\/admin\/stats\/downloads\?days=7&format=csv$/);
    await page.getByRole('button', { name: '30 天' }).click();
    await rows.nth(29).waitFor();
    assert.equal(await rows.count(), 30);
    assert.match((await csv.getAttribute('href')) ?? '', /days=30&format=csv$/);
    const download = page.waitForEvent('download');
    await csv.click();
    const saved = await download;
    assert.match(saved.suggestedFilename(), /^downloads-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(problems, []);
  });
});
