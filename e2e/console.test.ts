/**
 * The operator console in a real browser against the real server (docs/console.md): signing in
 * with a wrong password and a right one, an editor kept out of admin pages, writing an
 * announcement with a pasted picture and pasted Word markup, the preview, a draft that stays off
 * the site, a scheduled one that appears at its time (the server's clock moved by the test), one
 * published and pinned into the strip, a concurrent edit refused, delete and undo, sign-out. Each
 * screen also passes axe-core and raises no Content-Security-Policy violation.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { pastePicture } from './support/paste.js';
import { axeViolations } from './support/axe.js';
import { adminApi, eventually } from './support/admin-api.js';
import { contextOptions, launchBrowser, type viewports } from './support/browser.js';
import { addOperator, movableClock, serverFieldTime, setServerClock, signIn } from './support/console.js';
import { recordCspViolations, type CspViolation } from './support/page-helpers.js';
import { startServer, type RunningServer } from './support/server.js';

const users = {
  alice: { role: 'admin', password: 'alice-password-1' },
  bob: { role: 'editor', password: 'bob-password-12' },
  carol: { role: 'editor', password: 'carol-password-1' },
} as const;
type User = keyof typeof users;

let browser: Browser;
let server: RunningServer;
let dir: string;
let clock: ReturnType<typeof movableClock>;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chat-site-console-e2e-'));
  clock = movableClock(dir);
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer({ ...clock.env, DEMO_CONTENT: '0' }, { nodeArgs: clock.nodeArgs }),
  ]);
  for (const [name, user] of Object.entries(users)) addOperator(server, name, user.role, user.password);
});
after(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Console {
  page: Page;
  context: BrowserContext;
  csp: CspViolation[];
  errors: string[];
}

/** A fresh browser context, signed in to the console as `user` unless null. */
async function openConsole(
  t: TestContext,
  user: User | null,
  viewport: keyof typeof viewports = 'desktop',
  theme: 'light' | 'dark' = 'dark',
): Promise<Console> {
  const context = await browser.newContext(contextOptions(viewport, { colorScheme: theme }));
  t.after(() => context.close());
  const csp = await recordCspViolations(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // The console asks who is signed in; signed out, the answer is a 401 the browser reports.
    if (message.type() === 'error' && !/status of 401/.test(message.text())) errors.push(message.text());
  });
  if (user !== null) await signIn(page, server, user, users[user].password);
  return { page, context, csp, errors };
}

function assertClean(open: Console): void {
  assert.deepEqual(open.csp, [], 'no CSP violations');
  assert.deepEqual(open.errors, [], 'no console errors');
}

async function assertAccessible(page: Page, screen: string): Promise<void> {
  assert.deepEqual(await axeViolations(page), [], `axe on ${screen}`);
}

const api = <T>(method: string, path: string, body?: unknown) => adminApi<T>(server, method, path, body);

interface PublicBulletin {
  id: number;
  title: string;
  content: string;
  topup: number;
}

/** What a visitor's site reads: the public list. */
async function publicList(): Promise<PublicBulletin[]> {
  const response = await fetch(`${server.url}/v1/bulletin/page?page_index=1&page_size=100`);
  return ((await response.json()) as { list: PublicBulletin[] }).list;
}

const publicTitles = async () => (await publicList()).map((bulletin) => bulletin.title);

async function feedText(): Promise<string> {
  return (await fetch(`${server.url}/feed.atom`)).text();
}

/** Pastes HTML as Word puts it on the clipboard: classes, inline styles, Office tags, a script. */
async function pasteFromWord(page: Page): Promise<void> {
  const html =
    '<html xmlns:o="urn:schemas-microsoft-com:office:office"><body>' +
    '<h2 class="MsoTitle" style="color:#2f5496;font-family:Calibri">版本说明</h2>' +
    '<p class="MsoNormal" style="margin:0cm"><b><span style="font-size:14pt">重要</span></b>：请<i>尽快</i>升级。<o:p></o:p></p>' +
    '<ul style="margin-top:0cm"><li class="MsoListParagraph">修复闪退</li><li>优化耗电</li></ul>' +
    '<p><a href="https://example.com/notes" style="color:blue" onclick="alert(1)">完整说明</a></p>' +
    '<script>window.pwned = true</script></body></html>';
  await page.evaluate((markup) => {
    const data = new DataTransfer();
    data.setData('text/html', markup);
    data.setData('text/plain', '版本说明');
    document
      .querySelector('.ProseMirror')
      ?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, html);
}

const body = (page: Page) => page.getByRole('textbox', { name: '正文' });

/** A notice at the screen's edge (a Radix toast), not its copy for screen readers. */
const notice = (page: Page, text: string | RegExp) => page.getByRole('region', { name: /通知/ }).getByText(text);

describe('signing in', () => {
  test('a wrong password is refused with a message; the right one opens the console', async (t) => {
    const open = await openConsole(t, null, 'phone');
    const { page } = open;
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('用户名').waitFor();
    await assertAccessible(page, 'sign-in');
    await page.getByLabel('用户名').fill('alice');
    await page.getByLabel('密码').fill('not-her-password');
    await page.getByRole('button', { name: '登录' }).click();
    await page.getByText('用户名或密码错误').waitFor();
    // By keyboard only: the password field, the right password, Enter.
    await page.getByLabel('密码').fill('');
    await page.getByLabel('密码').focus();
    await page.keyboard.type(users.alice.password);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: '退出登录' }).waitFor();
    await page.getByRole('heading', { name: '公告' }).waitFor();
    await assertAccessible(page, 'announcement list (phone)');
    const cookie = (await open.context.cookies()).find((entry) => entry.name === 'chat_site_session');
    assert.equal(cookie?.httpOnly, true);
    assert.equal(cookie?.sameSite, 'Strict');
    assert.deepEqual(
      open.errors.filter((text) => !/status of 429/.test(text)),
      [],
    );
    assert.deepEqual(open.csp, []);
  });

  test('an editor sees no admin pages, and is refused at their address', async (t) => {
    const open = await openConsole(t, 'bob');
    const { page } = open;
    const nav = page.getByRole('navigation', { name: '主导航' });
    await nav.getByRole('link', { name: '公告' }).waitFor();
    assert.equal(await nav.getByRole('link', { name: '审计日志' }).count(), 0);
    await page.goto(`${server.url}/admin/audit`);
    await page.getByRole('heading', { name: '需要管理员权限' }).waitFor();
    const status = await page.evaluate(async () => (await fetch('/v1/admin/audit')).status);
    assert.equal(status, 403);
    // The browser reports the refusal the test itself asked for.
    open.errors.splice(0, open.errors.length, ...open.errors.filter((text) => !/status of 403/.test(text)));
    assertClean(open);
  });
});

describe('writing announcements', () => {
  test('a pasted picture uploads with a progress bar and lands with its size; Word markup keeps its structure', async (t) => {
    const open = await openConsole(t, 'alice');
    const { page } = open;
    await page.getByRole('link', { name: '新建公告' }).click();
    await page.getByLabel('标题').fill('新版本上线');
    await body(page).click();
    await page.keyboard.type('开头一段。');
    await page.keyboard.press('Enter');
    // Held until the progress bar has been seen.
    let answer = () => {};
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    await page.route('**/v1/admin/files?*', async (route) => {
      await held;
      await route.continue();
    });
    await pastePicture(page);
    await page.getByRole('progressbar', { name: '上传 banner.png' }).waitFor();
    answer();
    const picture = body(page).locator('img');
    await picture.waitFor();
    assert.match((await picture.getAttribute('src')) ?? '', /^\/v1\/file\/preview\/[\w-]+/);
    assert.equal(await picture.getAttribute('width'), '320');
    assert.equal(await picture.getAttribute('height'), '180');
    // Loaded and decoded (decode() waits for the bytes, and fails on a picture that cannot load).
    assert.equal(
      await picture.evaluate((image: HTMLImageElement) => image.decode().then(() => image.naturalWidth)),
      320,
    );
    // The caret is in the text after the picture, not on it: a paste must not replace it.
    assert.equal(await body(page).locator('.ProseMirror-selectednode').count(), 0);
    await body(page).press('End');
    await pasteFromWord(page);
    await assertAccessible(page, 'editor');

    await page.getByRole('button', { name: '发布', exact: true }).click();
    await page.getByText('已发布', { exact: true }).first().waitFor();
    const published = (await publicList()).find((bulletin) => bulletin.title === '新版本上线');
    assert.ok(published !== undefined, 'on the public site at once');
    const html = published.content;
    assert.match(html, /<img src="file\/preview\/[\w.-]+" alt="" width="320" height="180"/);
    assert.match(html, /<h2>版本说明<\/h2>/);
    assert.match(html, /<strong>重要<\/strong>/);
    assert.match(html, /<em>尽快<\/em>/);
    assert.match(html, /<ul><li><p>修复闪退<\/p><\/li><li><p>优化耗电<\/p><\/li><\/ul>/);
    assert.match(html, /<a[^>]* href="https:\/\/example.com\/notes"[^>]*>完整说明<\/a>/);
    assert.doesNotMatch(html, /style=|class=|onclick|script|pwned|o:p/);
    assert.equal(await page.evaluate(() => (window as { pwned?: boolean }).pwned), undefined);
    assertClean(open);
  });

  test('by keyboard alone: open the editor, write, format, publish', async (t) => {
    const open = await openConsole(t, 'bob', 'desktop', 'light');
    const { page } = open;
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    // From the top of the page to 新建公告, by Tab.
    await page.locator('body').focus();
    for (let step = 0; step < 20 && (await focused()) !== '新建公告'; step++) await page.keyboard.press('Tab');
    assert.equal(await focused(), '新建公告');
    await page.keyboard.press('Enter');
    await page.getByLabel('标题').waitFor();
    await page.getByLabel('标题').focus();
    await page.keyboard.type('键盘写的公告');
    // Tab reaches the toolbar, then the text.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'B 加粗');
    await body(page).focus();
    await page.keyboard.type('第一句，');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('加粗的');
    await page.keyboard.press('Control+b');
    await page.keyboard.press('Enter');
    await page.keyboard.type('- 列表一项');
    // Out of the text and on to 发布, by Tab.
    for (let step = 0; step < 25 && (await focused()) !== '发布'; step++) await page.keyboard.press('Tab');
    assert.equal(await focused(), '发布');
    await page.keyboard.press('Enter');
    await notice(page, '已发布').waitFor();
    const published = (await publicList()).find((bulletin) => bulletin.title === '键盘写的公告');
    assert.match(
      published?.content ?? '',
      /<p>第一句，<strong>加粗的<\/strong><\/p><ul><li><p>列表一项<\/p><\/li><\/ul>/,
    );
    assertClean(open);
  });

  test('the preview shows the text as the site will, at phone and desktop width, light and dark, publishing nothing', async (t) => {
    const open = await openConsole(t, 'alice');
    const { page } = open;
    const before = await publicTitles();
    await page.getByRole('link', { name: '新建公告' }).click();
    await page.getByLabel('标题').fill('预览里的公告');
    await body(page).click();
    await page.keyboard.type('只在预览里出现的正文。');
    await page.getByRole('button', { name: '预览' }).click();
    const dialog = page.getByRole('dialog', { name: '预览' });
    const frame = page.frameLocator('iframe[title="公告预览"]');
    await frame.getByRole('heading', { name: '预览里的公告' }).waitFor();
    await frame.getByText('只在预览里出现的正文。').waitFor();
    const iframe = dialog.locator('iframe');
    assert.equal(await iframe.evaluate((frame) => frame.clientWidth), 375, 'a phone-wide frame');
    await assertAccessible(page, 'preview dialog');
    await dialog.getByRole('button', { name: '桌面' }).click();
    assert.equal(await iframe.evaluate((frame) => frame.clientWidth), 1280, 'a desktop-wide frame');
    await dialog.getByRole('button', { name: '浅色' }).click();
    await frame.locator('html.light').waitFor();
    await dialog.getByRole('button', { name: '深色' }).click();
    await frame.locator('html.dark').waitFor();
    // The site's own article: its typography and share button.
    await frame.locator('.prose-bulletin').waitFor();
    await frame.getByRole('button', { name: '分享' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.deepEqual(await publicTitles(), before, 'nothing published');
    assertClean(open);
  });

  test('a draft stays off the site, its feeds and its pages', async (t) => {
    const open = await openConsole(t, 'bob', 'phone', 'light');
    const { page } = open;
    await page.getByRole('link', { name: '新建公告' }).click();
    await page.getByLabel('标题').fill('还没写完的草稿');
    await body(page).click();
    await page.keyboard.type('草稿正文');
    await page.getByRole('button', { name: '保存草稿' }).click();
    await notice(page, '草稿已保存').waitFor();
    await page.waitForURL(/\/admin\/bulletins\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('main').getByText('草稿', { exact: true }).waitFor();
    assert.ok(!(await publicTitles()).includes('还没写完的草稿'));
    assert.doesNotMatch(await feedText(), /还没写完的草稿/);
    const detail = await fetch(`${server.url}/v1/bulletin/detail?id=${id}`);
    assert.doesNotMatch(await detail.text(), /还没写完的草稿/);
    // The console's filter finds it.
    await page.getByRole('link', { name: '公告' }).first().click();
    await page.getByRole('button', { name: '草稿', exact: true }).click();
    await page.getByRole('list', { name: '公告列表' }).getByText('还没写完的草稿').waitFor();
    await assertAccessible(page, 'list filtered to drafts (phone, light)');
    assertClean(open);
  });

  test('published and pinned, it appears in the pinned strip of the public site', async (t) => {
    const open = await openConsole(t, 'alice');
    const { page } = open;
    await page.getByRole('link', { name: '新建公告' }).click();
    await page.getByLabel('标题').fill('春节客服安排');
    await body(page).click();
    await page.keyboard.type('春节期间客服时间调整。');
    await page.getByLabel('置顶', { exact: true }).check();
    await page.getByRole('button', { name: '发布', exact: true }).click();
    await page.getByText('已发布', { exact: true }).first().waitFor();
    const site = await open.context.newPage();
    await site.goto(`${server.url}/`);
    await site.getByRole('region', { name: '置顶公告' }).getByText('春节客服安排').first().waitFor();
    await site.close();
    assertClean(open);
  });

  test('a second save of the same version is refused, both versions are shown, and the operator chooses', async (t) => {
    const { id } = await api<{ id: number }>('POST', '/bulletins', { title: '原来的标题', content: '<p>原文</p>' });
    const first = await openConsole(t, 'alice');
    const second = await openConsole(t, 'bob');
    for (const { page } of [first, second]) {
      await page.goto(`${server.url}/admin/bulletins/${id}`);
      await page.getByLabel('标题').waitFor();
    }
    await first.page.getByLabel('标题').fill('甲改的标题');
    await first.page.getByRole('button', { name: '保存修改' }).click();
    await notice(first.page, '修改已保存').waitFor();

    await second.page.getByLabel('标题').fill('乙改的标题');
    await second.page.getByRole('button', { name: '保存修改' }).click();
    const dialog = second.page.getByRole('dialog', { name: /保存冲突/ });
    await dialog.waitFor();
    await dialog.getByText('乙改的标题').waitFor();
    await dialog.getByText('甲改的标题').waitFor();
    await assertAccessible(second.page, 'conflict dialog');
    const detail = async () =>
      (await (await fetch(`${server.url}/v1/bulletin/detail?id=${id}`)).json()) as { Title: string };
    assert.equal((await detail()).Title, '甲改的标题', 'nothing overwritten');
    // The browser reports the refused save, which is what this test is about.
    second.errors.splice(0, second.errors.length, ...second.errors.filter((text) => !/status of 409/.test(text)));
    await dialog.getByRole('button', { name: '按所选保存' }).click();
    await notice(second.page, '修改已保存').waitFor();
    assert.equal((await detail()).Title, '乙改的标题');
    assertClean(first);
    assertClean(second);
  });

  test('delete asks first, and can be undone', async (t) => {
    const { id } = await api<{ id: number }>('POST', '/bulletins', { title: '要删除的公告', content: '<p>x</p>' });
    const open = await openConsole(t, 'alice', 'phone');
    const { page } = open;
    await page.goto(`${server.url}/admin/bulletins/${id}`);
    await page.getByRole('button', { name: '删除' }).click();
    const confirm = page.getByRole('alertdialog', { name: '删除这条公告？' });
    await confirm.waitFor();
    await assertAccessible(page, 'delete confirmation (phone)');
    await confirm.getByRole('button', { name: '取消' }).click();
    assert.ok((await publicTitles()).includes('要删除的公告'), 'cancel deletes nothing');
    await page.getByRole('button', { name: '删除' }).click();
    await confirm.getByRole('button', { name: '删除' }).click();
    await notice(page, '公告已删除').waitFor();
    await page.waitForURL(/\/admin\/bulletins$/);
    assert.ok(!(await publicTitles()).includes('要删除的公告'));
    await page.getByRole('button', { name: '撤销' }).click();
    await notice(page, '公告已恢复').waitFor();
    assert.ok((await publicTitles()).includes('要删除的公告'));
    await page.getByRole('list', { name: '公告列表' }).getByText('要删除的公告').waitFor();
    assertClean(open);
  });

  test('a scheduled announcement appears on the site, its feed and the strip at its time, by itself', async (t) => {
    const open = await openConsole(t, 'alice');
    const { page } = open;
    await page.getByRole('link', { name: '新建公告' }).click();
    await page.getByLabel('标题').fill('十分钟后的公告');
    await body(page).click();
    await page.keyboard.type('定时发布的正文');
    await page.getByLabel('置顶', { exact: true }).check();
    await page.getByLabel('发布时间').fill(serverFieldTime(10 * 60_000));
    await page.getByRole('button', { name: '定时发布' }).click();
    await notice(page, /已定时，将于/).waitFor();
    await page.getByRole('main').getByText('已定时', { exact: true }).waitFor();
    // Asked now, the answers are cached without it...
    assert.ok(!(await publicTitles()).includes('十分钟后的公告'));
    assert.doesNotMatch(await feedText(), /十分钟后的公告/);
    // ...and eleven minutes later, with no write and no restart, it is there.
    setServerClock(server, clock.file, 11 * 60_000);
    assert.ok(await eventually(async () => (await publicTitles()).includes('十分钟后的公告')), 'on the public list');
    assert.match(await feedText(), /十分钟后的公告/);
    const site = await open.context.newPage();
    await site.goto(`${server.url}/`);
    await site.getByRole('region', { name: '置顶公告' }).getByText('十分钟后的公告').first().waitFor();
    await site.close();
    assertClean(open);
  });
});

describe('the rest of the console', () => {
  test('the audit log shows who changed what', async (t) => {
    const open = await openConsole(t, 'alice', 'phone', 'light');
    const { page } = open;
    await page.getByRole('link', { name: '审计日志' }).click();
    const log = page.getByRole('list', { name: '操作记录' });
    await log
      .getByText(/新建了公告《/)
      .first()
      .waitFor();
    await assertAccessible(page, 'audit log (phone, light)');
    await log.getByText('原始记录').first().click();
    await log.getByText('修改后', { exact: true }).first().waitFor();
    assertClean(open);
  });

  test('the account screen changes the password, and refuses a wrong current one', async (t) => {
    const open = await openConsole(t, 'carol');
    const { page } = open;
    await page.getByRole('link', { name: '账号' }).click();
    await page.getByRole('heading', { name: '修改密码' }).waitFor();
    await assertAccessible(page, 'account');
    await page.getByLabel('当前密码').fill('wrong-password-0');
    await page.getByLabel('新密码', { exact: true }).fill('carol-password-2');
    await page.getByLabel('再次输入新密码').fill('carol-password-2');
    await page.getByRole('button', { name: '修改密码' }).click();
    await page.getByText(/修改失败/).waitFor();
    // The browser reports the refusal the test asked for.
    open.errors.splice(0, open.errors.length, ...open.errors.filter((text) => !/status of 400/.test(text)));
    await page.getByLabel('当前密码').fill(users.carol.password);
    await page.getByRole('button', { name: '修改密码' }).click();
    await notice(page, '密码已修改').waitFor();
    const signInAs = async (password: string) =>
      (
        await fetch(`${server.url}/v1/admin/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'carol', password }),
        })
      ).status;
    assert.equal(await signInAs('carol-password-2'), 200);
    assert.equal(await signInAs(users.carol.password), 401);
    assertClean(open);
  });

  test('sign-out ends the session on the server, not only in this browser', async (t) => {
    const open = await openConsole(t, 'alice');
    const { page } = open;
    const cookie = (await open.context.cookies()).find((entry) => entry.name === 'chat_site_session');
    assert.ok(cookie !== undefined);
    const asCookie = () =>
      fetch(`${server.url}/v1/admin/session`, { headers: { cookie: `chat_site_session=${cookie.value}` } });
    assert.equal((await asCookie()).status, 200);
    await page.getByRole('button', { name: '退出登录' }).click();
    await page.getByLabel('用户名').waitFor();
    assert.equal((await asCookie()).status, 401);
    await page.reload();
    await page.getByLabel('用户名').waitFor();
    assertClean(open);
  });
});
