import assert from 'node:assert/strict';
import { earlyAnswersGlobal } from '@chat-site/contract';
import type { Browser, BrowserContext, Locator, Page, Route } from 'playwright-core';
import { contextOptions, type viewports } from './browser.js';

export interface OpenPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions seen so far. */
  problems: string[];
  close(): Promise<void>;
}

/**
 * Waits for the site's script to take the page over: its first render (hydrating the landing
 * page, or rendering over another screen's frame) is on screen (web/src/main.tsx). The
 * script starts only after the first paint (web/src/boot-route.ts), so a test that acts on the
 * page right after it loads would otherwise meet the prerendered HTML.
 */
export function scriptHasTakenOver(page: Page): Promise<unknown> {
  // Pages that are not the site (a share page, a 404) have no #root.
  return page.waitForFunction(
    () => document.getElementById('root') === null || document.documentElement.hasAttribute('data-rendered'),
  );
}

/** A fresh browser context (no storage) with one page, collecting console errors. Its `goto`
 * waits for the site's script to take over (scriptHasTakenOver), unless `prerendered` asks for
 * the page as it is before that. */
export async function openPage(
  browser: Browser,
  viewport: keyof typeof viewports,
  init?: {
    localStorage?: Record<string, string>;
    prerendered?: boolean;
    userAgent?: string;
    /** 'allow' for a test of the service worker, which contextOptions blocks. */
    serviceWorkers?: 'allow';
  },
): Promise<OpenPage> {
  const context = await browser.newContext(
    contextOptions(viewport, {
      ...(init?.userAgent === undefined ? {} : { userAgent: init.userAgent }),
      ...(init?.serviceWorkers === undefined ? {} : { serviceWorkers: init.serviceWorkers }),
    }),
  );
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
  if (init?.prerendered !== true) {
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      if (new URL(url).origin === new URL(page.url()).origin) await scriptHasTakenOver(page);
      return response;
    };
  }
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

/** The site's entry script, as the build names it. */
export const entryScript = /\/assets\/index-[\w-]+\.js$/;

/**
 * Counts, from now on, every time something still loading appears anywhere on the page
 * (data-loading: the loading line, a download card's reserved facts). Answers a function that
 * reads the count.
 */
export async function countLoading(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const seen = window as Window & { loadingSeen?: number };
    seen.loadingSeen = 0;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node instanceof Element && (node.matches('[data-loading]') || node.querySelector('[data-loading]'))) {
            seen.loadingSeen = (seen.loadingSeen ?? 0) + 1;
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => (window as Window & { loadingSeen?: number }).loadingSeen ?? 0);
}

/** `goto` options for a page whose script is held back (holdScript): its load event may never
 * come, since boot-route.ts may start the script before it, and a script being fetched holds it. */
export const untilParsed = { waitUntil: 'domcontentloaded' } as const;

/** Holds the site's entry script back until the answered function is called: the page stays as
 * it is before the script runs (prerendered, with web/src/boot-route.ts's work done). */
export async function holdScript(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(entryScript, async (route: Route) => {
    await held;
    await route.continue();
  });
  return release;
}

export interface CspViolation {
  directive: string;
  blocked: string;
  /** The address of the document it happened in. */
  page: string;
}

/**
 * Records every Content-Security-Policy violation (`securitypolicyviolation` event) of every
 * document the context opens from now on, reloads and navigations included. Call before `goto`.
 */
export async function recordCspViolations(context: BrowserContext): Promise<CspViolation[]> {
  const violations: CspViolation[] = [];
  await context.exposeBinding('__e2eCspViolation', (_source, violation: CspViolation) => {
    violations.push(violation);
  });
  await context.addInitScript(() => {
    const report = (window as unknown as { __e2eCspViolation: (violation: CspViolation) => void }).__e2eCspViolation;
    window.addEventListener(
      'securitypolicyviolation',
      (event) => report({ directive: event.effectiveDirective, blocked: event.blockedURI, page: location.href }),
      true,
    );
  });
  return violations;
}

/**
 * Resolves once the page has drawn two more frames. What the page does in answer to something
 * it has already heard (a response, a console warning, a scroll) is rendered by then: React
 * commits its update before the next frame. For a test that proves something is NOT shown,
 * this bounds the wait by the page's own frames instead of a guessed time.
 */
export async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
}

/**
 * Lets the test wait until the early drawing of a screen (web/src/early-list.ts,
 * web/src/early-download.ts) has drawn it or given up: the drawing script calls the `drawn`
 * function web/src/boot-route.ts leaves on the early answers, whichever it decides. Call before
 * `goto`; answers the function that waits.
 */
export async function watchEarlyDrawing(page: Page): Promise<() => Promise<void>> {
  // A string: the test runner's transpiler would wrap a function's inner arrows in a helper
  // the page does not have.
  await page.addInitScript(`(() => {
    let early;
    Object.defineProperty(window, ${JSON.stringify(earlyAnswersGlobal)}, {
      configurable: true,
      get: () => early,
      set: (value) => {
        early = value;
        let drawn;
        Object.defineProperty(value, 'drawn', {
          configurable: true,
          get: () => drawn && (() => { window.__e2eEarlyDrawn = true; drawn(); }),
          set: (next) => { drawn = next; },
        });
      },
    });
  })()`);
  return async () => {
    await page.waitForFunction(() => (window as Window & { __e2eEarlyDrawn?: boolean }).__e2eEarlyDrawn === true);
  };
}

/**
 * Waits, frame by frame, until `track` (a carousel's moving list) stands somewhere other than
 * `from` (a CSS transform) and has come to rest there (the same transform two frames running);
 * answers where it rests.
 */
export async function trackMoved(track: Locator, from: string, timeout = 15_000): Promise<string> {
  const element = await track.elementHandle();
  const page = track.page();
  await page.waitForFunction(
    ({ element, from }) => getComputedStyle(element).transform !== from,
    { element, from },
    {
      timeout,
    },
  );
  const rest = await page.waitForFunction(
    (element) => {
      const seen = window as Window & { e2eLastTransform?: string };
      const now = getComputedStyle(element).transform;
      const resting = seen.e2eLastTransform === now;
      seen.e2eLastTransform = now;
      return resting && now;
    },
    element,
    { timeout },
  );
  return (await rest.jsonValue()) as string;
}
