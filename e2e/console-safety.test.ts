/**
 * The console on release day, in Chromium against the real built server (docs/console.md): only
 * the 发布 / 定时发布 buttons publish (Enter in the title or in the link dialog never does), a
 * published announcement is taken off the site only after asking, the console's own navigation
 * asks before it drops unsaved edits, and a package upload cancelled half way publishes nothing
 * and leaves nothing stored.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from './support/axe.js';
import { contextOptions, launchBrowser } from './support/browser.js';
import { addOperator, signIn } from './support/console.js';
import { recordCspViolations, type CspViolation } from './support/page-helpers.js';
import { adminApi } from './support/admin-api.js';
import { startServer, type RunningServer } from './support/server.js';

let browser: Browser;
let server: RunningServer;
let uploadDir: string;

before(async () => {
  uploadDir = mkdtempSync(join(tmpdir(), 'chat-site-console-uploads-'));
  [browser, server] = await Promise.all([launchBrowser(), startServer({ UPLOAD_DIR: uploadDir })]);
  addOperator(server, 'alice', 'admin', 'alice-password-1');
});
after(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(uploadDir, { recursive: true, force: true });
});

/** A fresh context signed in as alice; its CSP violations are collected. */
async function openConsole(t: TestContext): Promise<{ page: Page; csp: CspViolation[] }> {
  const context = await browser.newContext(contextOptions('desktop', { colorScheme: 'light' }));
  t.after(() => context.close());
  const csp = await recordCspViolations(context);
  const page = await context.newPage();
  await signIn(page, server, 'alice', 'alice-password-1');
  return { page, csp };
}

const adminGet = <T>(path: string) => adminApi<T>(server, 'GET', path);

interface Stored {
  id: number;
  title: string;
  content: string;
  status: string;
}

const storedByTitle = async (title: string) =>
  (await adminGet<{ list: Stored[] }>(`/bulletins?q=${encodeURIComponent(title)}&filter=all&page_index=1&page_size=20`))
    .list;

const publicTitles = async () =>
  (
    (await (await fetch(`${server.url}/v1/bulletin/page?page_index=1&page_size=100`)).json()) as {
      list: { title: string }[];
    }
  ).list.map((bulletin) => bulletin.title);

/** What the console asked the server to write for announcements: method and state. */
function recordWrites(page: Page): string[] {
  const writes: string[] = [];
  page.on('request', (request) => {
    if (!/\/v1\/admin\/bulletins(\/\d+)?$/.test(new URL(request.url()).pathname)) return;
    if (request.method() !== 'POST' && request.method() !== 'PUT') return;
    writes.push(`${request.method()} ${(request.postDataJSON() as { state: string }).state}`);
  });
  return writes;
}

const body = (page: Page) => page.getByRole('textbox', { name: '正文' });
const notice = (page: Page, text: string) => page.getByRole('region', { name: /通知/ }).getByText(text);

describe('nothing published by accident', () => {
  test('Enter in the title moves to the body and publishes nothing', async (t) => {
    const { page, csp } = await openConsole(t);
    const writes = recordWrites(page);
    await page.getByRole('link', { name: '新建公告' }).click();
    await page.getByLabel('标题').fill('回车不发布');
    await page.getByLabel('标题').press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'bulletin-body');
    await page.keyboard.type('下载页面');
    await page.getByRole('button', { name: '保存草稿' }).click();
    await notice(page, '草稿已保存').waitFor();
    assert.deepEqual(writes, ['POST draft'], 'Enter saved nothing; the draft was saved as a draft');
    const [stored] = await storedByTitle('回车不发布');
    assert.equal(stored?.title, '回车不发布');
    assert.match(stored?.content ?? '', /下载页面/);
    assert.deepEqual(csp, []);
  });

  test('Enter or 确定 in the link dialog sets the link and publishes nothing; the link is saved', async (t) => {
    const { page, csp } = await openConsole(t);
    const writes = recordWrites(page);
    await page.getByRole('link', { name: '新建公告' }).click();
    await page.getByLabel('标题').fill('链接不发布');
    await body(page).click();
    await page.keyboard.type('下载页面');
    await page.getByRole('button', { name: '保存草稿' }).click();
    await notice(page, '草稿已保存').waitFor();
    await body(page).click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.getByRole('button', { name: '链接' }).click();
    await page.getByLabel('链接地址').fill('https://example.com/one');
    await page.getByLabel('链接地址').press('Enter');
    await body(page).locator('a[href="https://example.com/one"]').waitFor();
    await page.keyboard.press('ControlOrMeta+A');
    await page.getByRole('button', { name: '链接' }).click();
    await page.getByLabel('链接地址').fill('https://example.com/two');
    await page.getByRole('button', { name: '确定' }).click();
    await body(page).locator('a[href="https://example.com/two"]').waitFor();
    assert.equal(await page.getByText('有未保存的修改').count(), 1, 'the link waits for a save');
    await page.getByRole('button', { name: '保存草稿' }).click();
    await notice(page, '草稿已保存').nth(1).waitFor();
    assert.deepEqual(writes, ['POST draft', 'PUT draft']);
    const [stored] = await storedByTitle('链接不发布');
    assert.equal(stored?.status, 'draft');
    assert.match(stored?.content ?? '', /<a [^>]*href="https:\/\/example\.com\/two"/);
    assert.ok(!(await publicTitles()).includes('链接不发布'), 'not on the site');
    assert.deepEqual(csp, []);
  });

  test('a published announcement: 保存修改 keeps it published; 撤回为草稿 asks first', async (t) => {
    const { page, csp } = await openConsole(t);
    await page.getByRole('link', { name: '新建公告' }).click();
    await page.getByLabel('标题').fill('已发布的公告');
    await page.getByRole('button', { name: '发布', exact: true }).click();
    await notice(page, '已发布').waitFor();
    assert.equal(await page.getByRole('button', { name: '保存草稿' }).count(), 0);
    await page.getByLabel('标题').fill('已发布的公告（改）');
    await page.getByRole('button', { name: '保存修改' }).click();
    await notice(page, '修改已保存').waitFor();
    assert.ok((await publicTitles()).includes('已发布的公告（改）'));

    await page.getByRole('button', { name: '撤回为草稿' }).click();
    const dialog = page.getByRole('alertdialog', { name: '撤回为草稿？' });
    await dialog.getByText(/“已发布的公告（改）”会立即从网站/).waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.ok((await publicTitles()).includes('已发布的公告（改）'), 'cancelled: still on the site');
    await page.getByRole('button', { name: '撤回为草稿' }).click();
    await dialog.getByRole('button', { name: '撤回为草稿' }).click();
    await notice(page, '已撤回为草稿').waitFor();
    assert.equal((await storedByTitle('已发布的公告（改）'))[0]?.status, 'draft');
    assert.ok(!(await publicTitles()).includes('已发布的公告（改）'));
    assert.deepEqual(csp, []);
  });
});

describe('nothing lost', () => {
  test("the console's navigation asks before it drops unsaved edits", async (t) => {
    const { page, csp } = await openConsole(t);
    const nav = page.getByRole('navigation', { name: '主导航' });
    await page.getByRole('link', { name: '新建公告' }).click();
    await page.getByLabel('标题').fill('还没保存');
    await nav.getByRole('link', { name: '账号' }).click();
    const dialog = page.getByRole('alertdialog', { name: '放弃未保存的修改？' });
    await dialog.waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await dialog.getByRole('button', { name: '继续编辑' }).click();
    assert.equal(await page.getByLabel('标题').inputValue(), '还没保存');
    assert.match(page.url(), /\/admin\/bulletins\/new$/);
    await nav.getByRole('link', { name: '账号' }).click();
    await dialog.getByRole('button', { name: '放弃修改并离开' }).click();
    await page.getByRole('heading', { name: '账号', level: 1 }).waitFor();
    // Nothing unsaved: no question.
    await nav.getByRole('link', { name: '公告' }).click();
    await page.getByRole('heading', { name: '公告', level: 1 }).waitFor();
    assert.equal(await dialog.count(), 0);
    assert.deepEqual(csp, []);
  });

  test('a tab closed mid-edit offers its text back when reopened; a save or 丢弃 clears it', async (t) => {
    const context = await browser.newContext(contextOptions('desktop', { colorScheme: 'dark' }));
    t.after(() => context.close());
    const csp = await recordCspViolations(context);
    let page = await context.newPage();
    await signIn(page, server, 'alice', 'alice-password-1');
    const write = async (title: string) => {
      await page.goto(`${server.url}/admin/bulletins/new`);
      await page.getByLabel('标题').fill(title);
      await body(page).click();
      await page.keyboard.type(`${title}的正文`);
      // Kept a moment after the last key: wait until the browser holds it, then close the tab.
      await page.waitForFunction((text) => Object.values(localStorage).some((kept) => kept.includes(text)), title);
      await page.close();
      page = await context.newPage();
      await page.goto(`${server.url}/admin/bulletins/new`);
    };
    const offer = () => page.getByRole('region', { name: '未保存的内容' });
    await write('崩溃前写的');
    await offer()
      .getByText(/^本浏览器保存了 .+ 未保存的内容。$/)
      .waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await offer().getByRole('button', { name: '恢复未保存的内容' }).click();
    assert.equal(await page.getByLabel('标题').inputValue(), '崩溃前写的');
    await body(page).getByText('崩溃前写的的正文').waitFor();
    await page.getByRole('button', { name: '保存草稿' }).click();
    await notice(page, '草稿已保存').waitFor();
    assert.match((await storedByTitle('崩溃前写的'))[0]?.content ?? '', /崩溃前写的的正文/);
    await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '公告' }).click();
    await page.getByRole('link', { name: '新建公告' }).click();
    await page.getByLabel('标题').waitFor();
    assert.equal(await offer().count(), 0, 'saved: nothing left to offer');

    await write('不要了');
    await offer().getByRole('button', { name: '丢弃' }).click();
    assert.equal(await offer().count(), 0);
    assert.equal(await page.getByLabel('标题').inputValue(), '');
    await page.reload();
    await page.getByLabel('标题').waitFor();
    assert.equal(await offer().count(), 0, 'discarded for good');
    assert.deepEqual(csp, []);
  });

  test('停止上传 during a package upload stops it: nothing published, nothing stored', async (t) => {
    const { page } = await openConsole(t);
    const files = readdirSync(new URL(server.env.STORAGE_URL ?? '').pathname, { recursive: true }).sort();
    const before = await adminGet<{ platforms: { os: string; history: unknown[] }[] }>('/releases');
    let patches = 0;
    let release = () => {};
    const held = new Promise<void>((done) => (release = done));
    let reached = () => {};
    const secondChunk = new Promise<void>((done) => (reached = done));
    // The second chunk is held, as on a slow line, until the operator has cancelled.
    await page.route('**/v1/admin/uploads/*', async (route) => {
      if (route.request().method() === 'PATCH' && ++patches === 2) {
        reached();
        await held;
      }
      await route.continue().catch(() => undefined);
    });
    await page.getByRole('link', { name: '版本发布' }).click();
    const windows = page.getByRole('article', { name: 'Windows' });
    await windows.getByRole('button', { name: '发布新版本' }).click();
    const form = windows.getByRole('form', { name: '发布 Windows 新版本' });
    await form.getByLabel('安装包文件').setInputFiles({
      name: 'xingliao-setup-9.9.9.exe',
      mimeType: 'application/octet-stream',
      buffer: Buffer.concat([Buffer.from('MZ'), randomBytes(17 * 1024 * 1024)]),
    });
    await form.getByLabel('版本号').fill('9.9.9');
    await form.getByRole('button', { name: '发布' }).click();
    await page.getByRole('alertdialog', { name: '发布 Windows 9.9.9？' }).getByRole('button', { name: '发布' }).click();
    await secondChunk;
    const outcome = page.waitForResponse(
      (response) =>
        (response.request().method() === 'DELETE' && response.url().includes('/v1/admin/uploads/')) ||
        (response.request().method() === 'POST' && response.url().endsWith('/v1/admin/releases')),
    );
    await windows.getByRole('button', { name: '停止上传' }).click();
    release();
    const answer = await outcome;
    await page.getByText('已停止上传，Windows 没有发布新版本', { exact: true }).waitFor();
    assert.equal(answer.request().method(), 'DELETE', 'the upload was terminated, not published');
    assert.equal(answer.status(), 204);
    assert.deepEqual(readdirSync(uploadDir), [], 'no staged upload left');
    assert.deepEqual(readdirSync(new URL(server.env.STORAGE_URL ?? '').pathname, { recursive: true }).sort(), files);
    assert.deepEqual(await adminGet('/releases'), before, 'no release published');
  });
});

describe('what every visitor downloads', () => {
  test('publishing the version already offered warns; cancelled, nothing changes', async (t) => {
    const { page, csp } = await openConsole(t);
    const before = await adminGet('/releases');
    await page.getByRole('link', { name: '版本发布' }).click();
    const windows = page.getByRole('article', { name: 'Windows' });
    await windows.getByRole('button', { name: '发布新版本' }).click();
    const form = windows.getByRole('form', { name: '发布 Windows 新版本' });
    await form.getByRole('radio', { name: '外部地址' }).check();
    await form.getByLabel('下载地址').fill('https://dl.example.com/xingliao-setup-5.0.1.exe');
    await form.getByLabel('版本号').fill('5.0.1');
    await form.getByRole('button', { name: '发布' }).click();
    const dialog = page.getByRole('alertdialog', { name: '发布 Windows 5.0.1？' });
    await dialog.getByText('所有访客下载的 Windows 安装包将立即从 5.0.1 变为 5.0.1。').waitFor();
    await dialog.getByText(/^与当前版本号相同/).waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.deepEqual(await adminGet('/releases'), before);
    assert.deepEqual(csp, []);
  });

  test('turning the CDN on after its check failed asks first', async (t) => {
    const { page, csp } = await openConsole(t);
    await page.getByRole('link', { name: '设置' }).click();
    await page.getByLabel('使用 CDN 分发本站托管的文件').check();
    await page.getByLabel('CDN 地址').fill('http://127.0.0.1:1/b');
    await page.getByRole('button', { name: '检查 CDN' }).click();
    await page.getByText(/^CDN 没有响应：/).waitFor();
    await page.getByRole('button', { name: '保存', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: 'CDN 检查未通过，仍要使用？' });
    await dialog.getByText(/所有访客将立即从 http:\/\/127\.0\.0\.1:1\/b 下载/).waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const config = (await (await fetch(`${server.url}/v1/common/appconfig`)).json()) as { use_cdn: number };
    assert.equal(config.use_cdn, 0, 'the CDN stays off');
    assert.deepEqual(csp, []);
  });
});

describe('when the server is away', () => {
  test('each screen fails on its own with 重试, the editor keeps its text, the console recovers by itself', async (t) => {
    const { page, csp } = await openConsole(t);
    let away = false;
    t.after(async () => {
      if (away) await server.resume();
    });
    const nav = page.getByRole('navigation', { name: '主导航' });
    await page.getByRole('link', { name: '新建公告' }).click();
    await page.getByLabel('标题').fill('断线时写的公告');
    await body(page).click();
    await page.keyboard.type('这段正文不能丢');
    away = true;
    await server.halt();
    await page.getByRole('button', { name: '保存草稿' }).click();
    await page.getByText('保存失败：无法连接服务器，请检查网络后重试').waitFor();
    assert.equal(await page.getByLabel('标题').inputValue(), '断线时写的公告');
    await server.resume();
    away = false;
    await page.getByRole('button', { name: '保存草稿' }).click();
    await notice(page, '草稿已保存').waitFor();
    assert.match((await storedByTitle('断线时写的公告'))[0]?.content ?? '', /这段正文不能丢/);

    away = true;
    await server.halt();
    // A screen whose code never loaded: a message in its place, the frame stays.
    await nav.getByRole('link', { name: '版本发布' }).click();
    await page.getByRole('heading', { name: '这个页面没能打开' }).waitFor();
    await page.getByRole('button', { name: '重试' }).waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await nav.getByRole('link', { name: '公告' }).click();
    await page.getByRole('heading', { name: '公告', level: 1 }).waitFor();
    await nav.getByRole('link', { name: '版本发布' }).click();
    await page.getByRole('heading', { name: '这个页面没能打开' }).waitFor();
    await server.resume();
    away = false;
    // No click: it tries again by itself.
    await page.getByRole('article', { name: 'Windows' }).waitFor();
    await page.getByRole('heading', { name: '版本发布', level: 1 }).waitFor();
    assert.deepEqual(csp, []);
  });
});
