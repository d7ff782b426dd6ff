/** The announcement editor's saves as a new operator meets them (docs/console.md#writing-an-announcement):
 * a title over its limit said, never cut; a save to a server that does not answer said and
 * given up; the publish time kept when untouched; a scheduled one in the future tense; the
 * public page after publishing. Chromium against the built server, axe 0. */
import assert from 'node:assert/strict';
import { anyWallClock } from '@chat-site/contract';
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

const console_ = (t: { after: (fn: () => Promise<void>) => void }) =>
  signedInConsole(t, browser, server, 'alice', 'alice-password-1');

describe('the editor', () => {
  test('a title over 200 characters is kept whole, counted and said; no button saves it', async (t) => {
    const { page, problems } = await console_(t);
    await page.goto(`${server.url}/admin/bulletins/new`);
    const title = page.getByLabel('标题');
    await title.fill('端午节放假安排');
    await page.getByText('7/200', { exact: true }).waitFor();
    await title.fill('长'.repeat(10_000));
    assert.equal((await title.inputValue()).length, 10_000, 'nothing cut');
    const said = '标题最多 200 个字，现在有 10000 个字，请删减 9800 个字';
    await page.getByText(said).waitFor();
    assert.equal(await title.getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await axeViolations(page), []);
    await shootBothThemes(page, 'console-editor-save', 'title-too-long');
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/v1/admin/bulletins')) sent.push(request.url());
    });
    await page.getByRole('button', { name: '保存草稿' }).click();
    await page.getByRole('button', { name: '保存草稿' }).waitFor();
    assert.deepEqual(sent, [], 'nothing sent');
    // An emoji is one character, as the server counts.
    await title.fill('🎉'.repeat(200));
    await page.getByText('200/200', { exact: true }).waitFor();
    await page.getByRole('button', { name: '保存草稿' }).click();
    await page.getByText('草稿已保存', { exact: true }).waitFor();
    assert.deepEqual(problems, []);
  });

  test('a save to a server that does not answer says 正在保存…, then gives up and says so', async (t) => {
    const { page } = await console_(t);
    const { id } = await adminApi<{ id: number }>(server, 'POST', '/bulletins', {
      title: '服务器维护',
      content: '<p>今晚维护</p>',
      state: 'draft',
    });
    await page.goto(`${server.url}/admin/bulletins/${id}`);
    await page.getByLabel('标题').fill('服务器维护（改）');
    // The server takes the request and never answers.
    await page.route(`**/v1/admin/bulletins/${id}`, async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      await new Promise((done) => setTimeout(done, 30_000));
      await route.abort().catch(() => undefined);
    });
    await page.getByRole('button', { name: '保存草稿' }).click();
    await page.getByRole('status').getByText('正在保存…').waitFor();
    assert.ok(await page.getByRole('button', { name: '保存草稿' }).isDisabled());
    assert.deepEqual(await axeViolations(page), []);
    await shootBothThemes(page, 'console-editor-save', 'saving');
    const said = '保存失败：服务器 15 秒内没有回应（可能仍在处理），请稍后重试';
    await page.getByText(said).waitFor({ timeout: 20_000 });
    assert.ok(await page.getByRole('button', { name: '保存草稿' }).isEnabled(), 'the buttons are back');
    assert.equal(await page.getByText('正在保存…').count(), 0);
    assert.equal(await page.getByLabel('标题').inputValue(), '服务器维护（改）', 'the text is kept');
    await shootBothThemes(page, 'console-editor-save', 'save-timed-out');
    assert.deepEqual(await axeViolations(page), []);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });

  test('a save that leaves the publish time alone keeps it to the second', async (t) => {
    const { page, problems } = await console_(t);
    // 12:02:34 an hour ago, as a script or an older save may have stored it.
    const publishAt = `${anyWallClock(Date.now() - 3_600_000, 'Asia/Shanghai').slice(0, 17)}34`;
    const { id } = await adminApi<{ id: number }>(server, 'POST', '/bulletins', {
      title: '秒不动',
      content: '<p>正文</p>',
      state: 'published',
      publish_at: publishAt,
    });
    await page.goto(`${server.url}/admin/bulletins/${id}`);
    await page.getByLabel('标题').fill('秒不动（改）');
    await page.getByRole('button', { name: '保存修改' }).click();
    await page.getByText('修改已保存', { exact: true }).waitFor();
    const saved = await adminApi<{ publish_at: string; title: string }>(server, 'GET', `/bulletins/${id}`);
    assert.equal(saved.title, '秒不动（改）');
    assert.equal(saved.publish_at, publishAt, 'the publish time untouched');
    // Moved by hand, it is the minute typed: another minute of the same hour, for typing the
    // minute shown changes nothing.
    const field = page.getByLabel('发布时间');
    const minute = publishAt.slice(14, 16) === '07' ? '08' : '07';
    const moved = `${publishAt.slice(0, 13).replace(' ', 'T')}:${minute}`;
    await field.fill(moved);
    await page.getByRole('button', { name: '保存修改' }).click();
    await page.getByText('修改已保存', { exact: true }).nth(1).waitFor();
    const again = await adminApi<{ publish_at: string }>(server, 'GET', `/bulletins/${id}`);
    assert.equal(again.publish_at, `${moved.replace('T', ' ')}:00`);
    assert.deepEqual(problems, []);
  });

  test('a scheduled announcement says when it will be published, in the future tense', async (t) => {
    const { page, problems } = await console_(t);
    const publishAt = anyWallClock(Date.now() + 2 * 3_600_000, 'Asia/Shanghai');
    await adminApi(server, 'POST', '/bulletins', {
      title: '明天的活动',
      content: '<p>正文</p>',
      state: 'published',
      publish_at: publishAt,
    });
    await page.goto(`${server.url}/admin/bulletins?filter=scheduled`);
    const row = page.getByRole('listitem').filter({ hasText: '明天的活动' });
    await row.getByText(`将于 ${publishAt.slice(0, 16)} 发布`).waitFor();
    assert.equal(await row.getByText('发布于').count(), 0, 'no past tense for a time to come');
    assert.deepEqual(await axeViolations(page), []);
    await shootBothThemes(page, 'console-editor-save', 'scheduled-row');
    assert.deepEqual(problems, []);
  });
});

describe('the public site from the console', () => {
  test('after 发布 the editor offers 在网站上查看; the header links to the site', async (t) => {
    const { page, problems } = await console_(t);
    await page.goto(`${server.url}/admin/bulletins/new`);
    const site = page.getByRole('banner').getByRole('link', { name: /查看网站/ });
    assert.equal(await site.getAttribute('href'), '/');
    assert.equal(await site.getAttribute('target'), '_blank');
    await page.getByLabel('标题').fill('新版本上线');
    await page.getByRole('button', { name: '发布', exact: true }).click();
    await page.getByText('已发布', { exact: true }).first().waitFor();
    const view = page.getByRole('link', { name: /在网站上查看/ });
    await view.waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await shootBothThemes(page, 'console-editor-save', 'published-view-on-site');
    const [opened] = await Promise.all([page.context().waitForEvent('page'), view.click()]);
    await opened.getByRole('heading', { name: '新版本上线' }).first().waitFor();
    await opened.close();
    assert.deepEqual(problems, []);
  });
});

describe('the preview', () => {
  test('the desktop width is drawn whole, scaled to the box, not cut', async (t) => {
    const { page, problems } = await console_(t);
    await page.goto(`${server.url}/admin/bulletins/new`);
    await page.getByLabel('标题').fill('预览缩放');
    await page.getByRole('button', { name: '预览' }).click();
    const dialog = page.getByRole('dialog', { name: '预览' });
    await dialog.getByRole('button', { name: '桌面' }).click();
    await page.frameLocator('iframe[title="公告预览"]').getByRole('heading', { name: '预览缩放' }).waitFor();
    await dialog.getByText(/^桌面宽度 1280 像素，按 \d+% 缩小显示$/).waitFor();
    const region = await dialog.getByRole('region', { name: '预览画面' }).boundingBox();
    const frame = await dialog.locator('iframe[title="公告预览"]').boundingBox();
    assert.ok(region !== null && frame !== null);
    assert.ok(frame.x >= region.x && frame.x + frame.width <= region.x + region.width + 0.5, 'the whole page shows');
    assert.ok(
      frame.width < 1280 && frame.width > region.width - 40,
      `scaled to the box: ${frame.width} in ${region.width}`,
    );
    const sideways = await dialog
      .getByRole('region', { name: '预览画面' })
      .evaluate((element) => element.scrollWidth > element.clientWidth);
    assert.equal(sideways, false, 'nothing to scroll sideways');
    assert.deepEqual(await axeViolations(page), []);
    await shootBothThemes(page, 'console-editor-save', 'preview-desktop');
    assert.deepEqual(problems, []);
  });
});
