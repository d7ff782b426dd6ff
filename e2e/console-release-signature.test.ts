/**
 * A release's Tauri signature refused at publish is said in Chinese under the signature field of
 * the console's release form, in Chromium against the real built server with TAURI_PUBLIC_KEY
 * set, and keys and signatures made by Debian's minisign (docs/releases.md#tauri-signatures).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { asTauriSig, makeSigningKey, type SigningKey } from '../testing/minisign.js';
import { axeViolations } from './support/axe.js';
import { launchBrowser } from './support/browser.js';
import { addOperator, signedInConsole } from './support/console.js';
import { shootBothThemes } from './support/shots.js';
import { startServer, type RunningServer } from './support/server.js';

let server: RunningServer;
let browser: Browser;
let key: SigningKey;
let other: SigningKey;
before(async () => {
  [key, other] = [makeSigningKey(), makeSigningKey()];
  server = await startServer({ TAURI_PUBLIC_KEY: key.tauriPubkey });
  addOperator(server, 'alice', 'admin', 'alice-password-1');
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
  key?.remove();
  other?.remove();
});

test('a signature of another key, then of another version: each said under the field; a right one publishes', async (t) => {
  const { page, problems } = await signedInConsole(t, browser, server, 'alice', 'alice-password-1');
  await page.goto(`${server.url}/admin/releases`);
  const windows = page.getByRole('article', { name: 'Windows' });
  await windows.getByRole('button', { name: '发布新版本' }).click();
  const form = windows.getByRole('form', { name: '发布 Windows 新版本' });
  const name = 'xingliao_7.1.0_x64-setup.exe';
  await form.getByRole('radio', { name: '外部地址' }).check();
  await form.getByLabel('下载地址').fill(`https://dl.example.com/${name}`);
  await form.getByLabel('版本号').fill('7.1.0');
  const field = form.getByLabel('更新签名（Tauri，可选）');
  const publish = async () => {
    await form.getByRole('button', { name: '发布' }).click();
    await page.getByRole('alertdialog', { name: '发布 Windows 7.1.0？' }).getByRole('button', { name: '发布' }).click();
  };

  await field.fill(asTauriSig(other.sign(Buffer.from('x'), `timestamp:1\tfile:${name}`)));
  await publish();
  const wrongKey = `更新签名不是用设置的更新公钥签的（签名的密钥 ID 为 ${other.keyId}）`;
  await form.getByRole('alert').filter({ hasText: wrongKey }).waitFor();
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  assert.deepEqual(await axeViolations(page), []);
  await shootBothThemes(page, 'console-releases', 'signature-refused');

  await field.fill(asTauriSig(key.sign(Buffer.from('x'), `timestamp:1\tfile:${name}\tversion:7.0.0`)));
  assert.equal(await form.getByText(wrongKey).count(), 0, 'editing the signature clears what was said of it');
  await publish();
  await form.getByRole('alert').filter({ hasText: '这个更新签名是给版本 7.0.0 的，与这次发布的版本号不符' }).waitFor();

  await field.fill(asTauriSig(key.sign(Buffer.from('x'), `timestamp:1\tfile:${name}\tversion:7.1.0`)));
  await publish();
  await page.getByText('Windows 7.1.0 已发布', { exact: true }).waitFor();
  // The browser logs each refused publish (a 400) itself; nothing else went wrong.
  assert.deepEqual(
    problems.filter((problem) => !problem.includes('status of 400')),
    [],
  );
});
