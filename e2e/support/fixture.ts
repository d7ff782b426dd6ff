/** What most browser-test files share: the built server on demo content and one Chromium,
 * started before the file's tests (together) and stopped after them. */
import { after, before } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { startServer, type RunningServer } from './server.js';

export interface Site {
  readonly server: RunningServer;
  readonly browser: Browser;
}

export function useSiteAndBrowser(env: Record<string, string> = {}): Site {
  const site = {} as { server: RunningServer; browser: Browser };
  before(async () => {
    [site.server, site.browser] = await Promise.all([startServer(env), launchBrowser()]);
  });
  after(async () => {
    await site.browser?.close();
    await site.server?.stop();
  });
  return site;
}
