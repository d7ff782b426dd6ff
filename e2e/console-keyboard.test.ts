/**
 * The operator console by keyboard and on a phone (docs/console.md#keyboard,
 * docs/console.md#on-a-phone): the editor's toolbar is one Tab stop walked with the arrow keys,
 * focus comes back after a save and after every dialog, no console screen scrolls sideways at
 * 390 px, the toolbar stays in view over a long text, and a picture's alt text is set in the
 * editor and shown on the public site. Each screen passes axe-core.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from './support/axe.js';
import { launchBrowser } from './support/browser.js';
import { addOperator, dialogReady, watchedConsole } from './support/console.js';
import { startServer, type RunningServer } from './support/server.js';
import { pastePicture } from './support/paste.js';

const password = 'alice-password-1';
let browser: Browser;
let server: RunningServer;

before(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer({ DEMO_CONTENT: '0' })]);
  addOperator(server, 'alice', 'admin', password);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const widths = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 860 } } as const;

/** Alice signed in, at a phone's 390 px or a desktop's width; no CSP report or script error. */
async function openConsole(t: TestContext, width: keyof typeof widths = 'desktop'): Promise<Page> {
  const look = { device: width, viewport: widths[width], colorScheme: 'dark' } as const;
  return (await watchedConsole(t, browser, server, { name: 'alice', password }, look)).page;
}

async function assertAccessible(page: Page, what: string): Promise<void> {
  assert.deepEqual(await axeViolations(page), [], `axe: ${what}`);
}

/** What has focus: its accessible label, or its text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (element === null || element === document.body) return 'body';
    return (element.getAttribute('aria-label') ?? element.textContent ?? '').trim();
  });

/** Waits until focus is on something whose label or text is `label`; says where it is if not. */
async function focusReaches(page: Page, label: string): Promise<void> {
  await page
    .waitForFunction((wanted) => {
      const element = document.activeElement;
      return element !== null && (element.getAttribute('aria-label') ?? element.textContent ?? '').trim() === wanted;
    }, label)
    .catch(async () => assert.fail(`focus is on ${await focused(page)}, not on ${label}`));
}

const body = (page: Page) => page.getByRole('textbox', { name: '正文' });

/** A new announcement with a title and a few lines, saved as a draft; its id. */
async function newDraft(page: Page, title: string, lines = 3): Promise<number> {
  await page.goto(`${server.url}/admin/bulletins/new`);
  await page.getByLabel('标题').fill(title);
  await body(page).click();
  for (let line = 1; line <= lines; line++) {
    await page.keyboard.type(`第 ${line} 段。`);
    await page.keyboard.press('Enter');
  }
  await page.getByRole('button', { name: '保存草稿' }).click();
  await page.waitForURL(/\/admin\/bulletins\/\d+$/);
  return Number(/(\d+)$/.exec(page.url())?.[1]);
}

describe('the editor by keyboard', () => {
  test('the toolbar is one Tab stop: arrows, Home and End move in it, and it remembers', async (t) => {
    const page = await openConsole(t);
    await page.goto(`${server.url}/admin/bulletins/new`);
    await page.getByLabel('标题').focus();
    await page.keyboard.press('Tab');
    assert.equal(await focused(page), 'B 加粗');
    await page.keyboard.press('ArrowRight');
    assert.equal(await focused(page), 'I 斜体');
    await page.keyboard.press('End');
    assert.equal(await focused(page), '表格 插入表格');
    await page.keyboard.press('ArrowRight');
    assert.equal(await focused(page), 'B 加粗', 'the arrows wrap around');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal(await focused(page), 'H2 章节');
    // One Tab leaves the whole toolbar for the text; Shift+Tab comes back to H2.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'bulletin-body');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focused(page), 'H2 章节');
    const stops = await page.getByRole('toolbar', { name: '格式' }).locator('button[tabindex="0"]').count();
    assert.equal(stops, 1);
    await assertAccessible(page, 'editor');
  });

  test('after a save focus is back on the button pressed, or on the heading of a new screen', async (t) => {
    const page = await openConsole(t);
    await page.goto(`${server.url}/admin/bulletins/new`);
    await page.getByLabel('标题').fill('保存后的焦点');
    await page.getByRole('button', { name: '保存草稿' }).focus();
    await page.keyboard.press('Enter');
    // A new announcement gets its own address, and so a new screen: its heading takes focus.
    await page.waitForURL(/\/admin\/bulletins\/\d+$/);
    await focusReaches(page, '编辑公告');
    await page.getByLabel('标题').fill('保存后的焦点（改）');
    await page.getByRole('button', { name: '保存草稿' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: /通知/ }).getByText('草稿已保存').last().waitFor();
    await focusReaches(page, '保存草稿');
  });

  test('focus returns to what opened each dialog, or to the text, or to a heading', async (t) => {
    const page = await openConsole(t);
    await newDraft(page, '对话框与焦点');
    const press = async (name: string) => {
      await page.getByRole('button', { name, exact: true }).focus();
      await page.keyboard.press('Enter');
    };
    // 预览: Escape closes it, focus is back on 预览.
    await press('预览');
    await page.getByRole('dialog').waitFor();
    await dialogReady(page);
    await page.keyboard.press('Escape');
    await focusReaches(page, '预览');
    // 链接: Escape returns to the toolbar's 链接; 确定 returns to the text.
    await body(page).click();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('End');
    while ((await focused(page)) !== '链接') await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    await page.getByLabel('链接地址').waitFor();
    await dialogReady(page);
    await page.keyboard.press('Escape');
    await focusReaches(page, '链接');
    await page.keyboard.press('Enter');
    await page.getByLabel('链接地址').fill('https://example.com');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'bulletin-body');
    // 发布 then 撤回为草稿: the question closes, and focus waits for the button the save disabled.
    await press('发布');
    await focusReaches(page, '保存修改');
    await press('撤回为草稿');
    await page.getByRole('alertdialog').getByRole('button', { name: '撤回为草稿' }).click();
    await focusReaches(page, '保存草稿');
    // Leaving with unsaved edits: 继续编辑 returns to the link that asked.
    await page.getByLabel('标题').fill('对话框与焦点（未保存）');
    await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '账号' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').getByRole('button', { name: '继续编辑' }).click();
    await focusReaches(page, '账号');
    // 删除: its button is gone with the screen; the list's heading takes focus.
    await press('删除');
    await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
    await page.waitForURL(/\/admin\/bulletins$/);
    await focusReaches(page, '公告');
    await assertAccessible(page, 'list after a deletion');
  });

  test('Escape pressed the moment a dialog takes focus closes it', async (t) => {
    const page = await openConsole(t);
    await newDraft(page, '一打开就按 Esc');
    // One Escape, in the same task as focus first enters the dialog: before the dialog library
    // has drawn itself again as the top layer, which is when it starts listening for the key.
    const pressEscapeOnFirstFocus = () =>
      page.evaluate(() => {
        let armed = true;
        document.addEventListener(
          'focusin',
          (event) => {
            const target = event.target as HTMLElement;
            if (!armed || target.closest('[role="dialog"], [role="alertdialog"]') === null) return;
            armed = false;
            target.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
          },
          { capture: true },
        );
      });
    for (const name of ['预览', '删除']) {
      await pressEscapeOnFirstFocus();
      await page.getByRole('button', { name, exact: true }).focus();
      await page.keyboard.press('Enter');
      await focusReaches(page, name);
      assert.equal(await page.locator('[role="dialog"], [role="alertdialog"]').count(), 0, `${name}: closed`);
    }
    assert.match(page.url(), /\/admin\/bulletins\/\d+$/, 'nothing was deleted');
  });

  test('the conflict dialog and the CDN question give focus back to the button pressed, or its section', async (t) => {
    const page = await openConsole(t);
    const id = await newDraft(page, '两人同时修改');
    // Someone else saves it meanwhile, in another tab.
    const other = await page.context().newPage();
    await other.goto(`${server.url}/admin/bulletins/${id}`);
    await other.getByLabel('标题').fill('另一个标签页改的');
    await other.getByRole('button', { name: '保存草稿' }).click();
    await other.getByRole('region', { name: /通知/ }).getByText('草稿已保存').waitFor();
    await page.getByLabel('标题').fill('这里改的');
    await page.getByRole('button', { name: '保存草稿' }).focus();
    await page.keyboard.press('Enter');
    const conflict = page.getByRole('dialog', { name: /保存冲突/ });
    await conflict.waitFor();
    await conflict.getByRole('button', { name: '继续编辑' }).click();
    await focusReaches(page, '保存草稿');

    // Turning on a CDN whose check failed asks first; 取消 returns to 保存.
    await page.goto(`${server.url}/admin/settings`);
    await page.getByLabel('使用 CDN 分发本站托管的文件').check();
    await page.getByLabel('CDN 地址').fill('http://127.0.0.1:1/b');
    await page.getByRole('button', { name: '检查 CDN' }).click();
    await page.getByText(/^CDN (没有响应|有响应但不正确)/).waitFor();
    const saveButton = page.getByRole('button', { name: '保存', exact: true });
    await saveButton.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').waitFor();
    await assertAccessible(page, 'CDN question');
    await dialogReady(page);
    await page.keyboard.press('Escape');
    await focusReaches(page, '保存');
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').getByRole('button', { name: '仍然使用 CDN' }).click();
    await page.getByRole('region', { name: /通知/ }).getByText('CDN 设置已保存').waitFor();
    // Saved, the form is drawn anew from the saved settings: its section's heading has focus.
    await focusReaches(page, 'CDN');
  });
});

describe('on a phone and a desktop', () => {
  for (const width of ['phone', 'desktop'] as const) {
    test(`no console screen scrolls sideways (${width}); the navigation shows it scrolls`, async (t) => {
      const page = await openConsole(t, width);
      const id = await newDraft(page, '宽度检查');
      const screens = ['bulletins', 'bulletins/new', `bulletins/${id}`, 'releases', 'settings', 'numbers', 'audit'];
      for (const screen of [...screens, 'account']) {
        await page.goto(`${server.url}/admin/${screen}`);
        await page.locator('#console-main h1').first().waitFor();
        if (screen === 'numbers') await page.getByRole('region', { name: '下载次数表' }).waitFor();
        const [scrollWidth, clientWidth] = await page.evaluate(() => [
          document.documentElement.scrollWidth,
          document.documentElement.clientWidth,
        ]);
        assert.ok(scrollWidth <= clientWidth, `${screen}: ${scrollWidth} px wide in ${clientWidth}`);
        await assertAccessible(page, `${screen} (${width})`);
      }
      await page.locator('header').getByText('alice · 管理员').waitFor({ state: 'visible' });
      const nav = page.getByRole('navigation', { name: '主导航' });
      const overflows = await nav.evaluate((element) => element.scrollWidth > element.clientWidth);
      // The fades ease in and out: wait for where they settle.
      const fadeSettles = (which: 'before' | 'after', opacity: string) =>
        page.waitForFunction(
          ([edge, wanted]) => {
            const fade = document.querySelector(`[data-more="${edge}"]`);
            return fade !== null && getComputedStyle(fade).opacity === wanted;
          },
          [which, opacity],
        );
      if (overflows) {
        // On the account screen, the last entry, the navigation is scrolled to its end.
        await fadeSettles('before', '1');
        await fadeSettles('after', '0');
        await nav.evaluate((element) => element.scrollTo({ left: 0 }));
        await fadeSettles('before', '0');
        await fadeSettles('after', '1');
      } else {
        await fadeSettles('before', '0');
        await fadeSettles('after', '0');
      }
      assert.equal(overflows, width === 'phone', 'only the phone scrolls the navigation');
      if (width === 'phone') {
        // At 390 px the numbers fit their box (dates without the year); narrower, the box
        // scrolls on its own and says so.
        await page.goto(`${server.url}/admin/numbers`);
        const table = page.getByRole('region', { name: '下载次数表' });
        assert.equal(await table.evaluate((box) => box.scrollWidth <= box.clientWidth), true, 'the table fits');
        assert.equal(await page.getByText('左右滑动查看各平台').count(), 0);
        await page.setViewportSize({ width: 300, height: 844 });
        await page.getByText('左右滑动查看各平台').waitFor({ state: 'visible' });
        assert.equal(await table.getAttribute('aria-describedby'), 'numbers-table-hint');
      }
    });
  }

  test('the toolbar stays in view over a long text (phone)', async (t) => {
    const page = await openConsole(t, 'phone');
    await newDraft(page, '很长的公告', 40);
    await body(page).press('Control+End');
    // To the end of the text: the language panes below it are past the toolbar's reach.
    await body(page).evaluate((text) =>
      window.scrollTo({ top: text.getBoundingClientRect().bottom + window.scrollY - window.innerHeight }),
    );
    const toolbar = page.getByRole('toolbar', { name: '格式' });
    const [bar, header] = await Promise.all([toolbar.boundingBox(), page.locator('header').first().boundingBox()]);
    assert.ok(bar !== null && header !== null);
    const scrolled = await page.evaluate(() => window.scrollY);
    assert.ok(scrolled > 500, `the page scrolled (${scrolled} px)`);
    assert.ok(Math.abs(bar.y - (header.y + header.height)) <= 1, `the toolbar sits under the header: ${bar.y}`);
    await assertAccessible(page, 'long text scrolled');
  });
});

describe('pictures', () => {
  test('alt text set by keyboard is saved and shown on the public site; a picture can be removed', async (t) => {
    const page = await openConsole(t);
    await page.goto(`${server.url}/admin/bulletins/new`);
    await page.getByLabel('标题').fill('有说明的图片');
    await body(page).click();
    await page.keyboard.type('上面一段。');
    await page.keyboard.press('Enter');
    await pastePicture(page);
    await body(page).locator('img').waitFor();
    // By keyboard: the arrow keys select the picture, Enter opens 图片说明.
    await page.keyboard.press('ArrowLeft');
    await body(page).locator('img.ProseMirror-selectednode').waitFor();
    await page.keyboard.press('Enter');
    await page.getByLabel('说明文字').fill('5.0 版新的聊天界面');
    await assertAccessible(page, 'picture dialog');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'bulletin-body');
    assert.equal(await body(page).locator('img').getAttribute('alt'), '5.0 版新的聊天界面');
    await page.getByRole('button', { name: '发布', exact: true }).click();
    await page.waitForURL(/\/admin\/bulletins\/\d+$/);
    const id = Number(/(\d+)$/.exec(page.url())?.[1]);

    const site = await browser.newPage();
    t.after(() => site.close());
    await site.goto(`${server.url}/#/announcements/${id}`);
    await site.locator('article img[alt="5.0 版新的聊天界面"]').waitFor();

    // By pointer: a click selects it, 图片说明 in the toolbar opens the dialog, 删除图片 removes it.
    await body(page).locator('img').click();
    await page.getByRole('button', { name: '图片说明' }).click();
    assert.equal(await page.getByLabel('说明文字').inputValue(), '5.0 版新的聊天界面');
    await page.getByRole('button', { name: '删除图片' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'bulletin-body');
    assert.equal(await body(page).locator('img').count(), 0);
  });
});
