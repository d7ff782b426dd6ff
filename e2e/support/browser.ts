/** Debian's Chromium driven by playwright-core, with the flags this machine needs. */
import { chromium, type Browser, type BrowserContextOptions } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const viewports = {
  phone: { width: 375, height: 812 },
  desktop: { width: 1280, height: 860 },
} as const;

/** The flags this machine needs; Lighthouse (scripts/audit.ts) launches Chromium with them too. */
export const chromiumFlags = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: [...chromiumFlags, ...extraArgs] });
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
