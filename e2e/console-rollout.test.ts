/** A staged roll-out in the console, in Chromium against the real built server
 * (docs/releases.md#staged-roll-out): a release published to a share of installs, raised, halted
 * and resumed one press each, the site's card following, and each change read in the audit log. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
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

const publicVersion = async (os: string) =>
  (
    (await (await fetch(`${server.url}/v1/common/getInstallPackageAddrs`)).json()) as { OS: string; version: string }[]
  ).find((entry) => entry.OS === os)?.version;

test('a release staged at 10 %, raised, halted and resumed from its card', async (t) => {
  const { page, problems } = await signedInConsole(t, browser, server, 'alice', 'alice-password-1');
  await page.goto(`${server.url}/admin/releases`);
  const android = page.getByRole('article', { name: 'Android' });
  const publish = async (version: string, share?: string) => {
    await android.getByRole('button', { name: '发布新版本' }).click();
    const form = android.getByRole('form', { name: '发布 Android 新版本' });
    await form.getByRole('radio', { name: '外部地址' }).check();
    await form.getByLabel('下载地址').fill(`https://dl.example.com/xingliao-${version}.apk`);
    await form.getByLabel('版本号').fill(version);
    if (share !== undefined) await form.getByLabel('推送范围').selectOption({ label: share });
    await form.getByRole('button', { name: '发布' }).click();
    const confirm = page.getByRole('alertdialog', { name: `发布 Android ${version}？` });
    if (share !== undefined) await confirm.getByText(/先有 10% 在检查更新时收到 5\.1\.0，其余仍提供 5\.0\.0/).waitFor();
    await confirm.getByRole('button', { name: '发布' }).click();
    await page.getByText(`Android ${version} 已发布`, { exact: true }).waitFor();
  };
  await publish('5.0.0');
  await publish('5.1.0', '分阶段发布：先推送给 10% 的安装');

  const panel = android.getByRole('region', { name: 'Android 分阶段发布' });
  await panel.getByText('5.1.0 推送给 10% 的安装，其余安装仍提供 5.0.0。').waitFor();
  await panel.getByRole('button', { name: '提高到 20%' }).click();
  await page.getByText('Android 5.1.0 推送给 20% 的安装，其余安装仍提供 5.0.0', { exact: true }).waitFor();
  assert.equal(await panel.getByRole('meter', { name: '推送比例' }).getAttribute('aria-valuenow'), '20');
  assert.equal(await publicVersion('android'), '5.1.0');
  assert.deepEqual(await axeViolations(page), []);
  await shootBothThemes(page, 'console-rollout', 'staged');

  await panel.getByRole('button', { name: '暂停推送' }).click();
  await page.getByText('Android 5.1.0 已暂停推送：尚未更新的安装和下载页都提供 5.0.0', { exact: true }).waitFor();
  assert.equal(await publicVersion('android'), '5.0.0');
  assert.deepEqual(await axeViolations(page), []);
  await shootBothThemes(page, 'console-rollout', 'halted');

  await panel.getByRole('button', { name: '继续推送（20%）' }).click();
  await panel.getByRole('button', { name: '暂停推送' }).waitFor();
  assert.equal(await publicVersion('android'), '5.1.0');

  await page.goto(`${server.url}/admin/audit`);
  await page.getByText('暂停了 Android 5.1.0 的分阶段发布，尚未更新的安装改为提供 5.0.0').waitFor();
  await page.getByText('把 Android 5.1.0 的推送比例从 10% 调到 20%').waitFor();
  await page.getByText('发布了 Android 5.1.0 版本，先推送给 10% 的安装').waitFor();
  assert.deepEqual(problems, []);
});

test('数据 shows the installed versions per day and how many run the current release', async (t) => {
  // Ten installs check (one address here, each its own app build's User-Agent): six on the
  // current 5.1.0, three on 5.0.0, one on a version never published.
  const checks = [...Array<string>(6).fill('5.1.0'), ...Array<string>(3).fill('5.0.0'), '1.2.3'];
  for (const [n, version] of checks.entries()) {
    const res = await fetch(`${server.url}/v1/common/appversion/android/${version}`, {
      headers: { 'user-agent': `xingliao-android install-${n}` },
    });
    assert.equal(res.status, 200);
  }
  const { page, problems } = await signedInConsole(t, browser, server, 'alice', 'alice-password-1');
  await page.goto(`${server.url}/admin/numbers`);
  const versions = page.getByRole('region', { name: '已安装版本' });
  await versions
    .getByText(/^当前版本 5\.1\.0：\d{4}-\d{2}-\d{2} 检查更新的 10 个安装中，6 个（60%）已更新到此版本。$/)
    .waitFor();
  const row = versions.getByRole('row').nth(1);
  assert.deepEqual((await row.getByRole('cell').allInnerTexts()).slice(1), ['6', '3', '1', '60%']);
  assert.deepEqual(await versions.getByRole('list', { name: '版本图例' }).getByRole('listitem').allInnerTexts(), [
    '5.1.0（当前）',
    '5.0.0',
    '其他',
  ]);
  assert.deepEqual(await axeViolations(page), []);
  await versions.scrollIntoViewIfNeeded();
  await shootBothThemes(page, 'console-rollout', 'installed-versions');
  // On a 390 px phone the bars make way, so the counts fit without scrolling sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  const box = versions.locator('table').locator('..');
  assert.ok(await box.evaluate((element) => element.scrollWidth <= element.clientWidth), 'no sideways scroll');
  assert.deepEqual(problems, []);
});
