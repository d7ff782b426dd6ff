/**
 * A Mac release as a set of files in the console's release form
 * (docs/console.md#releases-settings-and-numbers): the .dmg people download, electron-updater's
 * .zip and Tauri's .app.tar.gz with a real minisign signature (testing/minisign.ts). A file of
 * the wrong kind for its role, or a role twice, is refused under its row before anything is
 * uploaded; the server's refusal of a payload's signature is said under that row; the history
 * lists what was published. Chromium against the built server, axe 0.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import type { ReleaseCards } from '@chat-site/contract/admin';
import { asTauriSig, makeSigningKey, type SigningKey } from '../testing/minisign.js';
import { adminApi } from './support/admin-api.js';
import { axeViolations } from './support/axe.js';
import { signedInConsole, startConsoleSite } from './support/console.js';
import { shootBothThemes } from './support/shots.js';
import type { RunningServer } from './support/server.js';
import { stopServerAndBrowser } from './support/per-file.js';

let server: RunningServer;
let browser: Browser;
let key: SigningKey;
before(async () => {
  key = makeSigningKey();
  ({ server, browser } = await startConsoleSite([['alice', 'admin', 'alice-password-1']], {
    TAURI_PUBLIC_KEY: key.tauriPubkey,
  }));
});
after(async () => {
  await stopServerAndBrowser(server, browser);
  key?.remove();
});

const bytes = (head: string) => Buffer.concat([Buffer.from(head, 'latin1'), randomBytes(64 * 1024)]);
// A disk image ends in its 512-byte koly trailer, which the upload checks.
const makeDmg = (name: string) => ({
  name,
  mimeType: 'application/octet-stream',
  buffer: Buffer.concat([randomBytes(64 * 1024), Buffer.from('koly'), Buffer.alloc(508)]),
});
const dmg = makeDmg('XingLiao-7.1.0.dmg');
const zip = { name: 'XingLiao-7.1.0-mac.zip', mimeType: 'application/zip', buffer: bytes('PK\x03\x04') };
const tarGz = { name: 'XingLiao.app.tar.gz', mimeType: 'application/gzip', buffer: bytes('\x1f\x8b') };

async function macForm(t: { after: (fn: () => Promise<void>) => void }) {
  const open = await signedInConsole(t, browser, server, 'alice', 'alice-password-1');
  await open.page.goto(`${server.url}/admin/releases`);
  const mac = open.page.getByRole('article', { name: 'Mac' });
  await mac.getByRole('button', { name: '发布新版本' }).click();
  const form = mac.getByRole('form', { name: '发布 Mac 新版本' });
  await form.getByText('下载卡片始终提供上面的安装包', { exact: false }).waitFor();
  return { ...open, mac, form };
}

/** Adds a row and answers it: the group named 更新包 N. */
async function addPayload(form: Locator, place: number, role: string, file: typeof zip): Promise<Locator> {
  await form.getByRole('button', { name: '添加更新包' }).click();
  const row = form.getByRole('group', { name: `更新包 ${place}`, exact: true });
  await row.getByLabel('类型').selectOption({ label: role });
  await row.getByLabel('更新包文件').setInputFiles(file);
  return row;
}

const confirmPublish = (page: Page) =>
  page.getByRole('alertdialog', { name: '发布 Mac 7.1.0？' }).getByRole('button', { name: '发布' }).click();

test('a file of the wrong kind for its role, and a role twice, are refused under the row before any upload', async (t) => {
  const { page, form, problems } = await macForm(t);
  const uploads: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/v1/admin/uploads') || request.url().endsWith('/v1/admin/releases')) {
      uploads.push(`${request.method()} ${request.url()}`);
    }
  });
  await form.getByLabel('安装包文件').setInputFiles(dmg);
  await form.getByLabel('版本号').fill('7.1.0');
  // The .dmg is what people download; given as electron's payload it is refused.
  const electron = await addPayload(form, 1, 'electron-updater 更新包', dmg);
  const again = await addPayload(form, 2, 'electron-updater 更新包', zip);
  const tauri = await addPayload(form, 3, 'Tauri 更新包', tarGz);
  await tauri.getByLabel('架构').selectOption({ label: 'Apple 芯片·ARM64' });
  await form.getByRole('button', { name: '发布', exact: true }).click();

  const wrong = electron
    .getByRole('alert')
    .filter({ hasText: '“XingLiao-7.1.0.dmg”不是 Mac 的 electron-updater 更新包：应为 .zip 文件' });
  await wrong.waitFor();
  const file = electron.getByLabel('更新包文件');
  assert.equal(await file.getAttribute('aria-invalid'), 'true');
  assert.ok(await file.evaluate((element) => element === document.activeElement), 'the wrong file has focus');
  await again.getByRole('alert').filter({ hasText: '前面已有一个 electron-updater 更新包（全部架构）' }).waitFor();
  assert.equal(await again.getByLabel('类型').getAttribute('aria-invalid'), 'true');
  await tauri.getByRole('alert').filter({ hasText: '请粘贴 Tauri 打包时生成的 .sig 文件内容' }).waitFor();
  assert.equal(await tauri.getByLabel('签名', { exact: true }).getAttribute('aria-invalid'), 'true');
  assert.equal(await page.getByRole('alertdialog').count(), 0, 'no confirm while a payload is wrong');
  assert.deepEqual(uploads, [], 'nothing uploaded or published');
  assert.deepEqual(await axeViolations(page), []);
  await shootBothThemes(page, 'console-release-payloads', 'refused');

  // Choosing the right file says no more of it; a row removed takes its problem with it.
  await file.setInputFiles(zip);
  assert.equal(await wrong.count(), 0);
  await again.getByRole('button', { name: '移除更新包 2' }).click();
  assert.equal(await form.getByRole('group', { name: /^更新包 \d$/ }).count(), 2);
  // Focus is never lost with the row that held it; a new row starts at its first choice.
  const adder = form.getByRole('button', { name: '添加更新包' });
  await page.waitForFunction(() => document.activeElement?.textContent === '添加更新包');
  await adder.press('Enter');
  const added = form.getByRole('group', { name: '更新包 3', exact: true }).getByLabel('类型');
  await page.waitForFunction((element) => element === document.activeElement, await added.elementHandle());
  assert.deepEqual(problems, []);
});

test('a .dmg with an electron .zip and a signed Tauri .app.tar.gz is published; the history lists the payloads', async (t) => {
  const { page, mac, form, problems } = await macForm(t);
  await form.getByLabel('安装包文件').setInputFiles(dmg);
  await form.getByLabel('版本号').fill('7.1.0');
  await addPayload(form, 1, 'electron-updater 更新包', zip);
  const tauri = await addPayload(form, 2, 'Tauri 更新包', tarGz);
  const signature = tauri.getByLabel('签名', { exact: true });
  // Signed for another version first: the server's refusal is said under that row's signature.
  await signature.fill(asTauriSig(key.sign(tarGz.buffer, `timestamp:1\tfile:${tarGz.name}\tversion:7.0.0`)));
  assert.deepEqual(await axeViolations(page), []);
  await shootBothThemes(page, 'console-release-payloads', 'rows');
  await form.getByRole('button', { name: '发布', exact: true }).click();
  await confirmPublish(page);
  await tauri
    .getByRole('alert')
    .filter({ hasText: '这个更新签名是给版本 7.0.0 的，与这次发布的版本号不符' })
    .waitFor({ timeout: 60_000 });
  assert.equal(await signature.getAttribute('aria-invalid'), 'true');
  assert.equal(await form.getByText(/^发布失败/).count(), 0, 'said under the row, not beneath the form');

  await signature.fill(asTauriSig(key.sign(tarGz.buffer, `timestamp:1\tfile:${tarGz.name}\tversion:7.1.0`)));
  await form.getByRole('button', { name: '发布', exact: true }).click();
  await confirmPublish(page);
  await page.getByText('Mac 7.1.0 已发布', { exact: true }).waitFor({ timeout: 60_000 });

  // The card's current release and its history row list both, the file people download apart.
  const listed = mac.getByRole('list', { name: '7.1.0 的更新包' });
  await listed.first().waitFor();
  assert.match(
    (await listed.first().innerText()).replace(/\s+/g, ' '),
    /electron 更新包 全部架构 XingLiao-7\.1\.0-mac\.zip 64\.0 KB/,
  );
  await mac.getByText(/^历史版本/).click();
  const history = mac.getByRole('list', { name: 'Mac 历史版本' }).getByRole('list', { name: '7.1.0 的更新包' });
  assert.deepEqual(
    (await history.getByRole('listitem').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ')),
    ['electron 更新包 全部架构 XingLiao-7.1.0-mac.zip 64.0 KB', 'Tauri 更新包 全部架构 XingLiao.app.tar.gz 64.0 KB'],
  );
  const cards = await adminApi<ReleaseCards>(server, 'GET', '/releases');
  const published = cards.platforms.find((card) => card.os === 'mac')?.history[0];
  assert.equal(published?.file_key?.endsWith('XingLiao-7.1.0.dmg'), true, 'the download stays the .dmg');
  assert.deepEqual(
    published?.payloads.map((payload) => [payload.role, payload.size, payload.sha512 !== null]),
    [
      ['electron', zip.buffer.length, true],
      ['tauri', tarGz.buffer.length, true],
    ],
  );
  assert.deepEqual(await axeViolations(page), []);
  await shootBothThemes(page, 'console-release-payloads', 'history');
  // The browser logs the refused publish (a 400) itself; nothing else went wrong.
  assert.deepEqual(
    problems.filter((problem) => !problem.includes('status of 400')),
    [],
  );
});

test('停止上传 while a payload uploads: the package already stored goes too, nothing is published', async (t) => {
  const { page, mac, form, problems } = await macForm(t);
  const storage = new URL(server.env.STORAGE_URL ?? '').pathname;
  // Staged uploads live under .uploads/, made by the first: anything in it would be left over.
  const inStorage = () =>
    readdirSync(storage, { recursive: true })
      .filter((name) => name !== '.uploads')
      .sort();
  const stored = inStorage();
  const before = await adminApi(server, 'GET', '/releases');
  // The .dmg goes in one chunk; the payload's first chunk is held, as on a slow line.
  let patches = 0;
  let release = () => {};
  const held = new Promise<void>((done) => (release = done));
  let reached = () => {};
  const payloadStarted = new Promise<void>((done) => (reached = done));
  await page.route('**/v1/admin/uploads/*', async (route) => {
    if (route.request().method() === 'PATCH' && ++patches === 2) {
      reached();
      await held;
    }
    await route.continue().catch(() => undefined);
  });
  // Bytes no release holds: the same file as a published one would be kept for it.
  await form.getByLabel('安装包文件').setInputFiles(makeDmg('XingLiao-7.2.0.dmg'));
  await form.getByLabel('版本号').fill('7.2.0');
  await addPayload(form, 1, 'electron-updater 更新包', zip);
  await form.getByRole('button', { name: '发布', exact: true }).click();
  await page.getByRole('alertdialog', { name: '发布 Mac 7.2.0？' }).getByRole('button', { name: '发布' }).click();
  await payloadStarted;
  const deleted = (path: string) =>
    page.waitForResponse((response) => response.request().method() === 'DELETE' && response.url().includes(path));
  const [dropped, terminated] = [deleted('/v1/admin/files/'), deleted('/v1/admin/uploads/')];
  await mac.getByRole('button', { name: '停止上传' }).click();
  release();
  assert.equal((await dropped).status(), 204, 'the stored .dmg was deleted');
  // tus termination: the staged payload is dropped by its own DELETE, sent as the upload stops.
  assert.equal((await terminated).status(), 204, 'the staged payload was dropped');
  await page.getByText('已停止上传，Mac 没有发布新版本', { exact: true }).waitFor();
  assert.deepEqual(inStorage(), stored, 'nothing left in storage, staged or stored');
  assert.deepEqual(await adminApi(server, 'GET', '/releases'), before, 'no release published');
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  assert.deepEqual(problems, []);
});
