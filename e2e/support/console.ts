/** What the operator console's browser tests share: accounts made with the admin command line,
 * signing in through the console's own form, and a server whose clock the test moves. */
import { anyWallClock } from '@chat-site/contract';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { contextOptions, type viewports } from './browser.js';
import { openPage, recordCspViolations } from './page-helpers.js';
import { startServerAndBrowser, stopServerAndBrowser } from './per-file.js';
import { repoRoot, type RunningServer } from './server.js';

/** Adds an operator account the way an operator would: `npm run admin -- users add`. */
export function addOperator(server: RunningServer, name: string, role: 'admin' | 'editor', password: string): void {
  const result = spawnSync(
    process.execPath,
    [join(repoRoot, 'server/dist/admin.js'), 'users', 'add', name, '--role', role, '--password-stdin'],
    { env: { ...process.env, ...server.env }, input: `${password}\n`, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`users add ${name} failed: ${result.stderr}`);
}

export type Operator = [name: string, role: 'admin' | 'editor', password: string];

/** A console test file's server and Chromium (support/per-file.ts), with these operators added. */
export async function startConsoleSite(
  operators: Operator[],
  env: Record<string, string> = {},
): Promise<{ server: RunningServer; browser: Browser }> {
  const { server, browser } = await startServerAndBrowser(env);
  try {
    for (const [name, role, password] of operators) addOperator(server, name, role, password);
  } catch (error) {
    await stopServerAndBrowser(server, browser);
    throw error;
  }
  return { server, browser };
}

/** Signs in at /admin with the form's labelled fields, and waits for the console's frame. */
export async function signIn(page: Page, server: RunningServer, name: string, password: string): Promise<void> {
  await page.goto(`${server.url}/admin/bulletins`);
  await page.getByLabel('用户名').fill(name);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('button', { name: '登录' }).click();
  await page.getByRole('button', { name: '退出登录' }).waitFor();
}

/**
 * A desktop page of the console signed in as `name`, closed when the test `t` ends. Its problems
 * start empty: the sign-in screen's own question, whether anyone is signed in, is answered 401.
 */
export async function signedInConsole(
  t: { after: (fn: () => Promise<void>) => void },
  browser: Browser,
  server: RunningServer,
  name: string,
  password: string,
): Promise<Awaited<ReturnType<typeof openPage>>> {
  const open = await openPage(browser, 'desktop', { prerendered: true });
  t.after(() => open.close());
  await signIn(open.page, server, name, password);
  open.problems.length = 0;
  return open;
}

/**
 * A console page signed in as `name` in a context of its own, at a phone's or a desktop's size.
 * When the test `t` ends the context is closed and the test fails if a CSP report or a script
 * error came up meanwhile.
 */
export async function watchedConsole(
  t: { after: (fn: () => Promise<void>) => void },
  browser: Browser,
  server: RunningServer,
  operator: { name: string; password: string },
  look: { device?: keyof typeof viewports } & BrowserContextOptions = {},
): Promise<{ page: Page; context: BrowserContext }> {
  const { device = 'desktop', ...options } = look;
  const context = await browser.newContext(contextOptions(device, options));
  const csp = await recordCspViolations(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  t.after(async () => {
    await context.close();
    assert.deepEqual(csp, [], 'no CSP violations');
    assert.deepEqual(errors, [], 'no script errors');
  });
  await signIn(page, server, operator.name, operator.password);
  return { page, context };
}

/** Node's options that load the movable clock (fake-clock.mjs) into the server, and the file
 * that holds how far ahead it runs. */
export function movableClock(dir: string): { nodeArgs: string[]; env: Record<string, string>; file: string } {
  const file = join(dir, 'clock-offset');
  writeFileSync(file, '0');
  return {
    nodeArgs: ['--import', join(repoRoot, 'e2e/support/fake-clock.mjs')],
    env: { FAKE_CLOCK_FILE: file },
    file,
  };
}

/** Moves the server's clock `ms` ahead of the real one from now on. */
export function setServerClock(server: RunningServer, file: string, ms: number): void {
  writeFileSync(file, String(ms));
  server.child.kill('SIGUSR2');
}

/** The server's wall clock (TIME_ZONE, Asia/Shanghai by default) `ms` from now, as a
 * datetime-local field holds it. */
export function serverFieldTime(ms: number): string {
  return anyWallClock(Date.now() + ms, 'Asia/Shanghai')
    .slice(0, 16)
    .replace(' ', 'T');
}

/**
 * Waits until a dialog that just opened has focus inside it. Its Escape handler and focus trap
 * start in effects after the first paint: a key pressed as soon as the dialog is visible can
 * reach the page before them, on a busy machine, and the dialog stays open.
 */
export async function dialogReady(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const element = document.activeElement;
    return element !== null && element.closest('[role="dialog"], [role="alertdialog"]') !== null;
  });
}
