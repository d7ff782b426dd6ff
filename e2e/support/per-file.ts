/**
 * What most browser test files share: one real server and one Chromium for the whole file,
 * started in its `before` hook and stopped in its `after` hook, the browser first:
 *
 *   before(async () => ({ server, browser } = await startServerAndBrowser()));
 *   after(() => stopServerAndBrowser(server, browser));
 */
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { startServer, type RunningServer } from './server.js';

export async function startServerAndBrowser(
  env: Record<string, string> = {},
  browserArgs: string[] = [],
): Promise<{ server: RunningServer; browser: Browser }> {
  // Side by side: each takes a second or two, mostly waiting.
  const [server, browser] = await Promise.allSettled([startServer(env), launchBrowser(browserArgs)]);
  if (server.status === 'fulfilled' && browser.status === 'fulfilled') {
    return { server: server.value, browser: browser.value };
  }
  await stopServerAndBrowser(
    server.status === 'fulfilled' ? server.value : undefined,
    browser.status === 'fulfilled' ? browser.value : undefined,
  );
  throw server.status === 'rejected' ? server.reason : (browser as PromiseRejectedResult).reason;
}

/** Either may be missing when the `before` hook failed half way. */
export async function stopServerAndBrowser(server?: RunningServer, browser?: Browser): Promise<void> {
  await browser?.close();
  await server?.stop();
}
