/** The release form as a new operator meets it (docs/console.md#releases-settings-and-numbers):
 * its fields checked beside them before any confirm, what closing it and stopping an upload are
 * called, the lowest supported version's format, and an APK's own version. Chromium against
 * the built server, axe 0. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { adminApi } from './support/admin-api.js';
import { axeViolations } from './support/axe.js';
import { signedInConsole, startConsoleSite } from './support/console.js';
import { shootBothThemes } from './support/shots.js';
import type { RunningServer } from './support/server.js';
import { stopServerAndBrowser } from './support/per-file.js';

let server: RunningServer;
let browser: Browser;
before(async () => {
  ({ server, browser } = await startConsoleSite([['alice', 'admin', 'alice-password-1']]));
});
after(() => stopServerAndBrowser(server, browser));

async function releasesScreen(t: { after: (fn: () => Promise<void>) => void }) {
  const open = await signedInConsole(t, browser, server, 'alice', 'alice-password-1');
  await open.page.getByRole('link', { name: '版本发布' }).click();
  await open.page.getByRole('heading', { name: '版本发布', level: 1 }).waitFor();
  return open;
}

describe('the release form', () => {
  test('fields are checked beside them before the confirm step', async (t) => {
    const { page, problems } = await releasesScreen(t);
    const android = page.getByRole('article', { name: 'Android' });
    await android.getByRole('button', { name: '发布新版本' }).click();
    const form = android.getByRole('form', { name: '发布 Android 新版本' });
    await form.getByLabel('版本号').fill('9.9.9');
    await form.getByRole('button', { name: '发布', exact: true }).click();
    // No confirm: the file field says what is missing and takes focus.
    const file = form.getByLabel('安装包文件');
    await form.getByText('请选择安装包文件').waitFor();
    assert.equal(await page.getByRole('alertdialog').count(), 0, 'no confirm before the fields are right');
    assert.equal(await file.getAttribute('aria-invalid'), 'true');
    assert.ok(await file.evaluate((element) => element === document.activeElement), 'the wrong field has focus');
    assert.deepEqual(await axeViolations(page), []);
    await shootBothThemes(page, 'console-release-form', 'no-file');

    await form.getByRole('radio', { name: '外部地址' }).check();
    await form.getByLabel('下载地址').fill('ftp://not a url');
    await form.getByLabel('版本号').fill('abc');
    await form.getByRole('button', { name: '发布', exact: true }).click();
    await form.getByText('请填写以 https:// 或 http:// 开头的完整下载地址').waitFor();
    await form.getByText('“abc”不是版本号：请用数字和点，如 5.2.0（可带 -beta 等后缀）').waitFor();
    assert.equal(await form.getByLabel('版本号').getAttribute('aria-invalid'), 'true');
    assert.equal(await form.getByLabel('下载地址').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByRole('alertdialog').count(), 0);
    assert.deepEqual(await axeViolations(page), []);
    await shootBothThemes(page, 'console-release-form', 'bad-url-version');

    // Put right, the confirm comes.
    await form.getByLabel('下载地址').fill('https://dl.example.com/xingliao-9.9.9.apk');
    assert.equal(await form.getByLabel('下载地址').getAttribute('aria-invalid'), 'false');
    await form.getByLabel('版本号').fill('9.9.9');
    await form.getByRole('button', { name: '发布', exact: true }).click();
    await page.getByRole('alertdialog', { name: '发布 Android 9.9.9？' }).waitFor();
    assert.deepEqual(problems, []);
  });
});

describe('closing the release form', () => {
  test('取消 closes it, 停止上传 stops an upload and says nothing was published; no 取消发布', async (t) => {
    const { page, problems } = await releasesScreen(t);
    const ios = page.getByRole('article', { name: 'iOS' });
    await ios.getByRole('button', { name: '发布新版本' }).click();
    const form = ios.getByRole('form', { name: '发布 iOS 新版本' });
    await form.waitFor();
    // 取消发布 means taking something off the site in a Chinese console: nothing here says it.
    assert.equal(await page.getByText('取消发布').count(), 0);
    assert.equal(await form.getByRole('button', { name: '取消', exact: true }).count(), 1);
    assert.deepEqual(await axeViolations(page), []);
    await shootBothThemes(page, 'console-release-form', 'form-open');
    await form.getByRole('button', { name: '取消', exact: true }).click();
    await form.waitFor({ state: 'detached' });
    const opener = ios.getByRole('button', { name: '发布新版本' });
    await page.waitForFunction(() => document.activeElement?.textContent === '发布新版本');
    assert.ok(await opener.isVisible());

    // An upload held half way: its button says 停止上传, and stopping it says what became of it.
    let held = () => {};
    const holding = new Promise<void>((done) => (held = done));
    await page.route('**/v1/admin/uploads/*', async (route) => {
      if (route.request().method() === 'PATCH') {
        held();
        await new Promise((done) => setTimeout(done, 5_000));
      }
      await route.continue().catch(() => undefined);
    });
    await opener.click();
    await form.getByLabel('安装包文件').setInputFiles({
      name: 'xingliao-7.0.0.ipa',
      mimeType: 'application/octet-stream',
      buffer: Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(64 * 1024)]),
    });
    await form.getByLabel('版本号').fill('7.0.0');
    await form.getByRole('button', { name: '发布', exact: true }).click();
    await page.getByRole('alertdialog', { name: '发布 iOS 7.0.0？' }).getByRole('button', { name: '发布' }).click();
    await holding;
    await form.getByRole('button', { name: '停止上传' }).click();
    await page.getByText('已停止上传，iOS 没有发布新版本', { exact: true }).waitFor();
    await form.waitFor({ state: 'detached' });
    await shootBothThemes(page, 'console-release-form', 'upload-stopped');
    assert.deepEqual(await axeViolations(page), []);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    assert.deepEqual(problems, []);
  });
});

describe('what the release card says', () => {
  test('最低支持版本 gives its format, the oldest-system example reads as one, the notes are shown', async (t) => {
    await adminApi(server, 'POST', '/releases', {
      os: 'mac',
      url: 'https://dl.example.com/xingliao-5.3.0.dmg',
      version: '5.3.0',
      notes: '修复了登录问题\n新增深色模式',
    });
    const { page, problems } = await releasesScreen(t);
    const mac = page.getByRole('article', { name: 'Mac' });
    await mac.getByText('5.3.0', { exact: true }).first().waitFor();
    await mac.getByText(/修复了登录问题\s*新增深色模式/).waitFor();

    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/admin/min-versions/')) sent.push(request.url());
    });
    const minVersion = mac.getByRole('form', { name: 'Mac 最低支持版本' });
    await minVersion.getByText('数字和点，如 5.2.0。低于此版本的应用检查更新时会被要求强制更新').waitFor();
    await minVersion.getByLabel('最低支持版本').fill('版本五');
    await minVersion.getByRole('button', { name: '保存' }).click();
    await minVersion.getByText('“版本五”不是版本号：请用数字和点，如 5.2.0（可带 -beta 等后缀）').waitFor();
    assert.equal(await minVersion.getByLabel('最低支持版本').getAttribute('aria-invalid'), 'true');
    assert.deepEqual(sent, [], 'nothing sent');

    await mac.getByRole('button', { name: '发布新版本' }).click();
    const oldest = mac.getByRole('form', { name: '发布 Mac 新版本' }).getByLabel('最低系统版本');
    // An example, not a value: it says so.
    assert.equal(await oldest.getAttribute('placeholder'), '如 macOS 11');
    assert.deepEqual(await axeViolations(page), []);
    await shootBothThemes(page, 'console-release-form', 'card-notes-min-version');
    assert.deepEqual(problems, []);
  });
});
