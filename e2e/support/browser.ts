/** Debian's Chromium driven by playwright-core, with the flags this machine needs. */
import { chromium, type Browser, type BrowserContextOptions } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const viewports = {
  phone: { width: 375, height: 812 },
  desktop: { width: 1280, height: 860 },
} as const;

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

export function contextOptions(
  viewport: keyof typeof viewports,
  extra: BrowserContextOptions = {},
): BrowserContextOptions {
  return {
    viewport: viewports[viewport],
    deviceScaleFactor: 1,
    isMobile: viewport === 'phone',
    hasTouch: viewport === 'phone',
    locale: 'zh-CN',
    ...extra,
  };
}
