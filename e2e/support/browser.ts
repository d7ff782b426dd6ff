/** Debian's Chromium driven by playwright-core, with the flags this machine needs. */
import { Launcher, launch, type LaunchedChrome } from 'chrome-launcher';
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

/** The address bar's popups (see below). */
const addressBarPopups = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * The features the browser tests turn off. In the new headless mode every window has the
 * browser's own interface, and with it two renderers for the address bar's popup
 * (chrome://omnibox-popup.top-chrome/) that no test sees: they took a third of the processor time
 * of a browser test file (docs/testing.md#the-whole-suite). Chromium keeps only the last
 * `--disable-features` it is given, so the list starts with those Playwright turns off itself;
 * e2e/chromium.test.ts fails when Playwright's list has changed.
 */
export const disabledFeatures = [
  // Playwright 1.65's own list (playwright-core's chromiumSwitches).
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
  ...addressBarPopups,
];

const disableFeatures = '--disable-features=';

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [...chromiumFlags, `${disableFeatures}${disabledFeatures.join(',')}`, ...extraArgs],
  });
}

/**
 * A context as most tests want it. Its pages cannot register the service worker: the site asks
 * for it a few seconds after the load event (web/src/lib/service-worker.ts), and its install then
 * fetches and stores every built file, about 0.6 s of processor time for each context that stays
 * open that long, in the middle of whatever the test is doing (docs/testing.md#the-whole-suite).
 * The tests of the worker and of pages it controls pass `serviceWorkers: 'allow'`.
 */
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
    serviceWorkers: 'block',
    ...extra,
  };
}

/** Each `--disable-features=` list on a command line, as its features, in order. */
export function featureLists(args: readonly string[]): string[][] {
  return args
    .filter((arg) => arg.startsWith(disableFeatures))
    .map((arg) => arg.slice(disableFeatures.length).split(','));
}

/**
 * Chromium for Lighthouse (scripts/audit.ts, the calibration's test), started by chrome-launcher
 * with its own flags and this machine's. The address bar's popups are turned off there too: their
 * renderers took processor time from the page being measured. Only they are added to
 * chrome-launcher's `--disable-features`, not Playwright's list, which turns off paint holding and
 * so would change what Lighthouse measures.
 */
export function launchForLighthouse(extraArgs: string[] = []): Promise<LaunchedChrome> {
  const defaults = Launcher.defaultFlags();
  const [theirs = []] = featureLists(defaults);
  return launch({
    chromePath: chromiumPath,
    ignoreDefaultFlags: true,
    chromeFlags: [
      ...defaults.filter((flag) => !flag.startsWith(disableFeatures)),
      ...chromiumFlags,
      `${disableFeatures}${[...theirs, ...addressBarPopups].join(',')}`,
      ...extraArgs,
    ],
  });
}
