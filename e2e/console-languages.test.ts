/**
 * The editor's other languages (docs/console.md#other-languages): the traditional version the
 * server made, shown beside the simplified (自动转换); the operator's own, kept through a later
 * simplified edit; 重新转换 handing it back; and English written by hand. The release form's
 * notes have the same panes.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { adminApi } from './support/admin-api.js';
import { signedInConsole, startConsoleSite } from './support/console.js';
import { assertNoProblems } from './support/page-helpers.js';
import type { RunningServer } from './support/server.js';
import { shootBothThemes } from './support/shots.js';
import { stopServerAndBrowser } from './support/per-file.js';

let server: RunningServer;
let browser: Browser;
before(async () => {
  ({ server, browser } = await startConsoleSite(
    [
      ['alice', 'editor', 'alice-password-1'],
      ['bob', 'admin', 'bob-password-1'],
    ],
    { DEMO_CONTENT: '0' },
  ));
});
after(() => stopServerAndBrowser(server, browser));

interface Stored {
  title_tw: string;
  tw_by_hand: number;
  title_en: string;
}

test("the operator's traditional version survives a simplified edit until 重新转换; English is saved", async (t) => {
  const open = await signedInConsole(t, browser, server, 'alice', 'alice-password-1');
  const { page } = open;
  const { id } = await adminApi<{ id: number }>(server, 'POST', '/bulletins', {
    title: '软件更新',
    content: '<p>新的信息</p>',
  });
  const save = async () => {
    const answered = page.waitForResponse((response) => response.request().method() === 'PUT');
    await page.getByRole('button', { name: '保存修改' }).click();
    assert.equal((await answered).status(), 200);
  };
  await page.goto(`${server.url}/admin/bulletins/${id}`);
  const traditional = page.getByRole('region', { name: /繁体中文/ });
  await traditional.getByText('自动转换', { exact: true }).waitFor();
  await traditional.getByText('軟體更新').waitFor();
  await traditional.getByText('新的資訊').waitFor();
  await shootBothThemes(page, 'console-languages', 'automatic');

  await traditional.getByRole('button', { name: '修改繁体' }).click();
  await page.getByLabel('繁體標題').fill('軟體更新（手寫）');
  await page
    .getByRole('region', { name: /English/ })
    .getByRole('button', { name: '添加英文' })
    .click();
  await page.getByLabel('English title').fill('Software update');
  await shootBothThemes(page, 'console-languages', 'by-hand');
  await save();
  const saved = await adminApi<Stored>(server, 'GET', `/bulletins/${id}`);
  assert.deepEqual([saved.title_tw, saved.tw_by_hand, saved.title_en], ['軟體更新（手寫）', 1, 'Software update']);

  await page.getByLabel('标题', { exact: true }).fill('网络更新');
  await save();
  const kept = await adminApi<Stored>(server, 'GET', `/bulletins/${id}`);
  assert.deepEqual([kept.title_tw, kept.tw_by_hand], ['軟體更新（手寫）', 1]);

  await traditional.getByRole('button', { name: '重新转换' }).click();
  await traditional.getByText('保存时重新转换', { exact: true }).waitFor();
  await save();
  await traditional.getByText('網路更新').waitFor();
  await traditional.getByText('自动转换', { exact: true }).waitFor();
  const following = await adminApi<Stored>(server, 'GET', `/bulletins/${id}`);
  assert.deepEqual([following.title_tw, following.tw_by_hand], ['網路更新', 0]);
  assertNoProblems(open);
});

interface ReleaseVersions {
  version: string | null;
  notes_tw?: string | null;
  notes_tw_by_hand?: boolean;
  notes_en?: string | null;
}

test("the release form's notes have the same panes: traditional made or written, English by hand", async (t) => {
  const open = await signedInConsole(t, browser, server, 'bob', 'bob-password-1');
  const { page } = open;
  await page.getByRole('link', { name: '版本发布' }).click();
  const android = page.getByRole('article', { name: 'Android' });
  const publish = async (version: string, fill: () => Promise<void>) => {
    await android.getByRole('button', { name: '发布新版本' }).click();
    const form = android.getByRole('form', { name: '发布 Android 新版本' });
    await form.getByRole('radio', { name: '外部地址' }).check();
    await form.getByLabel('下载地址').fill(`https://dl.example.com/xingliao-${version}.apk`);
    await form.getByLabel('版本号').fill(version);
    await form.getByLabel('更新说明', { exact: true }).fill('修复了打印机的问题');
    await fill();
    await form.getByRole('button', { name: '发布', exact: true }).click();
    await page
      .getByRole('alertdialog', { name: `发布 Android ${version}？` })
      .getByRole('button', { name: '发布' })
      .click();
    await page.getByText(`Android ${version} 已发布`, { exact: true }).waitFor();
  };
  const published = async (version: string) => {
    const cards = await adminApi<{ platforms: { history: ReleaseVersions[] }[] }>(server, 'GET', '/releases');
    const release = cards.platforms.flatMap((card) => card.history).find((found) => found.version === version);
    return [release?.notes_tw, release?.notes_tw_by_hand, release?.notes_en];
  };

  await publish('1.0.0', async () => {
    const traditional = android.getByRole('region', { name: /繁体中文/ });
    await traditional.getByText('自动转换', { exact: true }).waitFor();
    await shootBothThemes(page, 'console-languages', 'release-automatic');
  });
  assert.deepEqual(await published('1.0.0'), ['修復了印表機的問題', false, null]);

  await publish('1.0.1', async () => {
    const traditional = android.getByRole('region', { name: /繁体中文/ });
    await traditional.getByRole('button', { name: '修改繁体' }).click();
    await android.getByLabel('繁體更新說明').fill('親手寫的說明');
    await android
      .getByRole('region', { name: /English/ })
      .getByRole('button', { name: '添加英文' })
      .click();
    await android.getByLabel('English release notes').fill('Printing fixed');
    await shootBothThemes(page, 'console-languages', 'release-by-hand');
  });
  assert.deepEqual(await published('1.0.1'), ['親手寫的說明', true, 'Printing fixed']);

  await publish('1.0.2', async () => {
    const traditional = android.getByRole('region', { name: /繁体中文/ });
    await traditional.getByRole('button', { name: '修改繁体' }).click();
    await android.getByLabel('繁體更新說明').fill('不要了');
    await traditional.getByRole('button', { name: '重新转换' }).click();
    await traditional.getByText('自动转换', { exact: true }).waitFor();
  });
  assert.deepEqual(await published('1.0.2'), ['修復了印表機的問題', false, null]);
  assertNoProblems(open);
});

test('the preview shows the version of the language picked, with the site in that language', async (t) => {
  const open = await signedInConsole(t, browser, server, 'alice', 'alice-password-1');
  const { page } = open;
  const { id } = await adminApi<{ id: number }>(server, 'POST', '/bulletins', {
    title: '软件更新',
    content: '<p>新的信息</p>',
  });
  await page.goto(`${server.url}/admin/bulletins/${id}`);
  await page
    .getByRole('region', { name: /繁体中文/ })
    .getByText('軟體更新')
    .waitFor();
  await page.getByRole('button', { name: '预览' }).click();
  const dialog = page.getByRole('dialog', { name: '预览' });
  const frame = page.frameLocator('iframe[title="公告预览"]');
  await frame.getByRole('heading', { name: '软件更新' }).waitFor();
  await dialog.getByRole('button', { name: '繁體' }).click();
  await frame.getByRole('heading', { name: '軟體更新' }).waitFor();
  await frame.getByText('新的資訊').waitFor();
  await dialog.getByRole('button', { name: 'English' }).click();
  await frame.getByRole('heading', { name: '软件更新' }).waitFor();
  await frame.getByText('Originally in Chinese').waitFor();
  await shootBothThemes(page, 'console-languages', 'preview-english-fallback');
  assertNoProblems(open);
});

test('the conflict dialog shows the saved English beside the operator’s, and saves the one chosen', async (t) => {
  const open = await signedInConsole(t, browser, server, 'alice', 'alice-password-1');
  const { page } = open;
  const { id } = await adminApi<{ id: number }>(server, 'POST', '/bulletins', {
    title: '维护',
    content: '<p>今晚</p>',
  });
  await page.goto(`${server.url}/admin/bulletins/${id}`);
  await page
    .getByRole('region', { name: /English/ })
    .getByRole('button', { name: '添加英文' })
    .click();
  await page.getByLabel('English title').fill('Mine');
  // Someone else saves their English meanwhile.
  const { version } = await adminApi<{ version: number }>(server, 'GET', `/bulletins/${id}`);
  await adminApi(server, 'PUT', `/bulletins/${id}`, { title_en: 'Theirs', content_en: '<p>Tonight</p>', version });
  await page.getByRole('button', { name: '保存修改' }).click();
  const dialog = page.getByRole('dialog', { name: /保存冲突/ });
  await dialog.getByText(/不同的部分：英文。/).waitFor();
  await dialog.getByText('Theirs', { exact: true }).waitFor();
  await dialog.getByText('Tonight').waitFor();
  await dialog.getByText('Mine', { exact: true }).waitFor();
  await shootBothThemes(page, 'console-languages', 'conflict-english');
  await dialog.getByRole('radio', { name: '用已保存的英文' }).check();
  await dialog.getByRole('button', { name: '按所选保存' }).click();
  await page.getByText('修改已保存').first().waitFor();
  const saved = await adminApi<Stored>(server, 'GET', `/bulletins/${id}`);
  assert.equal(saved.title_en, 'Theirs');
  // The save that met the conflict was answered 409, which the browser logs.
  assert.deepEqual(
    open.problems.filter((problem) => !problem.includes('409 (Conflict)')),
    [],
  );
});
