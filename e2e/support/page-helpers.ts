import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { contextOptions, type viewports } from './browser.js';

export interface OpenPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions seen so far. */
  problems: string[];
  close(): Promise<void>;
}

/** A fresh browser context (no storage) with one page, collecting console errors. */
export async function openPage(
  browser: Browser,
  viewport: keyof typeof viewports,
  init?: { localStorage?: Record<string, string> },
): Promise<OpenPage> {
  const context = await browser.newContext(contextOptions(viewport));
  if (init?.localStorage !== undefined) {
    await context.addInitScript((entries) => {
      for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    }, init.localStorage);
  }
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { page, context, problems, close: () => context.close() };
}

/** The page's hash route, e.g. "/announcements/3". */
export const routeOf = (page: Page) => new URL(page.url()).hash.replace(/^#/, '') || '/';

export async function waitForRoute(page: Page, route: string): Promise<void> {
  await page.waitForFunction((expected) => (location.hash.replace(/^#/, '') || '/') === expected, route);
}

export function assertNoProblems(open: OpenPage): void {
  assert.deepEqual(open.problems, [], `console errors: ${open.problems.join('\n')}`);
}
