/**
 * Every route in a real browser against the real server with its demo content, at phone and
 * desktop width, in the light and the dark theme, once it is fully drawn (lazy images loaded):
 * zero axe-core violations, zero Content-Security-Policy violations and zero console errors, and
 * the site's images in the format, size and loading docs/site.md#images asks for. One load
 * of each route serves all four. Also the page's security headers, and the CDN origin in
 * img-src once the app config turns the CDN on.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from './support/axe.js';
import { contextOptions, launchBrowser, type viewports } from './support/browser.js';
import { adminApi } from './support/admin-api.js';
import { repoRoot, startServer, type RunningServer } from './support/server.js';
import { startHttpStub, type HttpStub } from './support/stubs.js';

type Viewport = keyof typeof viewports;
type Theme = 'light' | 'dark';

const productName = (JSON.parse(readFileSync(join(repoRoot, 'site.config.json'), 'utf8')) as { productName: string })
  .productName;
const themeKey = 'chat-site.theme';
interface Violation {
  directive: string;
  blocked: string;
  source: string;
  sample: string;
}

let browser: Browser;
let server: RunningServer;
/** A demo announcement whose body holds an image, and that image's stored key. */
let withImage: { id: string; title: string; imageKey: string };

before(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  const answer = await fetch(`${server.url}/v1/bulletin/page?page_index=1&page_size=100`);
  const { list } = (await answer.json()) as { list: { id: number | string; title: string; content: string }[] };
  const item = list.find((entry) => /file\/preview\//.test(entry.content));
  assert.ok(item !== undefined, 'a demo announcement has an image');
  const imageKey = /file\/preview\/([^"?]+)/.exec(item.content)?.[1];
  assert.ok(imageKey !== undefined);
  withImage = { id: String(item.id), title: item.title, imageKey };
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// ---------------------------------------------------------------------------------------------

interface Watched {
  page: Page;
  /** Console messages of type error, and uncaught exceptions. */
  consoleErrors: string[];
  /** The `securitypolicyviolation` events of the current document. */
  violations(): Promise<Violation[]>;
  close(): Promise<void>;
}

async function open(viewport: Viewport, theme: Theme): Promise<Watched> {
  const context = await browser.newContext(contextOptions(viewport));
  await context.addInitScript(
    ([key, value]) => {
      const seen: Violation[] = [];
      (window as unknown as { __cspViolations: Violation[] }).__cspViolations = seen;
      window.addEventListener(
        'securitypolicyviolation',
        (event) =>
          seen.push({
            directive: event.effectiveDirective,
            blocked: event.blockedURI,
            source: `${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
            sample: event.sample,
          }),
        true,
      );
      try {
        localStorage.setItem(key, value);
      } catch {
        // about:blank between the routes has no storage of its own
      }
    },
    [themeKey, theme] as const,
  );
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
  return {
    page,
    consoleErrors,
    violations: () =>
      page.evaluate(() => (window as unknown as { __cspViolations?: Violation[] }).__cspViolations ?? []),
    close: () => context.close(),
  };
}

/**
 * The landing page once its content is hydrated (the footer follows it): a control that adds a
 * node under <main> any earlier would see hydration drop it, as the prerender did not have it.
 */
async function openLanding(viewport: Viewport, theme: Theme): Promise<Watched> {
  const w = await open(viewport, theme);
  await w.page.goto(`${server.url}/#/`);
  await w.page.getByRole('heading', { level: 1, name: productName }).waitFor();
  await w.page.locator('footer').waitFor();
  return w;
}

/**
 * The site's own images that break the rules of docs/site.md#images (SVG, or AVIF or WebP,
 * with a width and height in the markup, lazy when they start below the first screen), once the
 * page is fully drawn (the footer too). An announcement's pictures (in its <article>) are the
 * operator's uploads and are left out.
 */
function imageProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // The first screen is the top of the page (the header sticks to whatever is in view).
    window.scrollTo({ top: 0, behavior: 'instant' });
    return [...document.images]
      .filter((image) => image.closest('article') === null)
      .flatMap((image) => {
        const name = image.getAttribute('src') ?? '(no src)';
        const problems: string[] = [];
        const format = image.src.startsWith('data:')
          ? /^data:image\/(svg\+xml|avif|webp)[;,]/.test(image.src)
          : /\.(svg|avif|webp)$/.test(new URL(image.src).pathname);
        if (!format) problems.push('not SVG, AVIF or WebP');
        if (!image.hasAttribute('width') || !image.hasAttribute('height')) problems.push('no width and height');
        if (image.getBoundingClientRect().top >= window.innerHeight && image.loading !== 'lazy') {
          problems.push('below the first screen but not lazy');
        }
        return problems.map((problem) => `${name}: ${problem}`);
      });
  });
}

/** Scrolls to the bottom, so lazy images load, and waits until every image has settled. */
async function loadEverything(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let y = 0; y <= document.documentElement.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await new Promise((done) => requestAnimationFrame(() => done(undefined)));
    }
  });
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(
    () => {
      const pending = [...document.images].filter((image) => !image.complete);
      // What was drawn after the scroll (the footer follows hydration) is
      // brought into view, or its lazy images would never load.
      pending[0]?.scrollIntoView();
      return pending.length === 0;
    },
    undefined,
    { timeout: 10_000 },
  );
}

/** Every route of docs/site.md#screens-and-routes (and one that does not exist), each with
 * what shows it is fully drawn. */
function routes(viewport: Viewport): { path: string; ready: (page: Page) => Promise<unknown> }[] {
  const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name }).first().waitFor();
  const pane = (page: Page, name: string) =>
    page.getByTestId('announcement-pane').getByRole('heading', { level: 1, name }).waitFor();
  const articleImage = async (page: Page) => {
    const image = page.locator('article img').first();
    await image.waitFor();
    await page.waitForFunction(() => (document.querySelector('article img') as HTMLImageElement | null)?.complete);
    assert.ok(
      await image.evaluate((element) => (element as HTMLImageElement).naturalWidth > 0),
      'the announcement image loaded',
    );
  };
  return [
    { path: '/', ready: (page) => h1(page, productName) },
    { path: '/download', ready: (page) => h1(page, `下载${productName}`) },
    { path: '/downloadHelp', ready: (page) => h1(page, `${productName}下载教程`) },
    {
      path: '/announcements',
      ready: async (page) => {
        await h1(page, '平台公告');
        if (viewport === 'desktop') await page.getByTestId('announcement-pane').locator('article h1').waitFor();
      },
    },
    {
      path: `/announcements/${withImage.id}`,
      ready: async (page) => {
        await h1(page, '平台公告');
        if (viewport === 'desktop') {
          await pane(page, withImage.title);
          await articleImage(page);
        }
      },
    },
    {
      path: `/announcement/${withImage.id}`,
      ready: async (page) => {
        await h1(page, withImage.title);
        await articleImage(page);
      },
    },
    {
      path: '/changelog',
      ready: async (page) => {
        await h1(page, '更新日志');
        await page.getByTestId('changelog').waitFor();
      },
    },
    { path: '/nope', ready: (page) => h1(page, '页面不存在') },
  ];
}

describe('every route: no axe, CSP or console errors, and images as docs/site.md#images asks', () => {
  for (const viewport of ['phone', 'desktop'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      test(`${viewport}, ${theme} theme`, async (t) => {
        const w = await open(viewport, theme);
        t.after(() => w.close());
        for (const route of routes(viewport)) {
          // A fresh document for every route: violations of the first paint count too.
          await w.page.goto('about:blank');
          await w.page.goto(`${server.url}/#${route.path}`);
          await route.ready(w.page);
          await loadEverything(w.page);
          assert.ok(
            await w.page.evaluate((name) => document.documentElement.classList.contains(name), theme),
            `${route.path}: the ${theme} theme is applied`,
          );
          assert.deepEqual(await w.violations(), [], `${route.path}: no CSP violations`);
          assert.deepEqual(w.consoleErrors, [], `${route.path}: no console errors`);
          assert.deepEqual(await axeViolations(w.page), [], `${route.path}: no axe violations`);
          assert.deepEqual(await imageProblems(w.page), [], `${route.path}: images`);
        }
      });
    }
  }

  test('control: axe reports an image without a text alternative', async (t) => {
    const w = await openLanding('desktop', 'light');
    t.after(() => w.close());
    await w.page.evaluate(() => document.querySelector('main')?.append(document.createElement('img')));
    assert.match((await axeViolations(w.page)).join('\n'), /^image-alt:/m);
  });

  test('control: an unsized PNG below the first screen, loaded at once, is reported', async (t) => {
    const w = await openLanding('phone', 'light');
    t.after(() => w.close());
    assert.deepEqual(await imageProblems(w.page), []);
    await w.page.evaluate(() => {
      const image = document.createElement('img');
      image.src = '/missing.png';
      image.alt = '';
      document.querySelector('main')?.append(image);
    });
    assert.deepEqual(await imageProblems(w.page), [
      '/missing.png: not SVG, AVIF or WebP',
      '/missing.png: no width and height',
      '/missing.png: below the first screen but not lazy',
    ]);
  });

  test('control: a violation is caught by the listener and shows in the console', async (t) => {
    const w = await openLanding('desktop', 'dark');
    t.after(() => w.close());
    // Plain HTTP to an address no config names, which the policy still refuses
    // (docs/site.md#content-security-policy): the browser never asks for it.
    await w.page.evaluate(() => {
      const image = document.createElement('img');
      image.src = 'http://not-allowed.example.com/pixel.png';
      document.body.append(image);
    });
    await w.page.waitForFunction(
      () => ((window as unknown as { __cspViolations: unknown[] }).__cspViolations ?? []).length > 0,
    );
    const violations = await w.violations();
    assert.equal(violations[0]?.directive, 'img-src');
    assert.equal(violations[0]?.blocked, 'http://not-allowed.example.com/pixel.png');
    assert.ok(
      w.consoleErrors.some((text) => text.includes('Content Security Policy')),
      `the console reports it: ${JSON.stringify(w.consoleErrors)}`,
    );
  });
});

// ---------------------------------------------------------------------------------------------

/** The CSP as directive name → values. */
function parseCsp(header: string | undefined): Map<string, string[]> {
  assert.ok(header !== undefined && header !== '', 'the page has a Content-Security-Policy');
  const directives = new Map<string, string[]>();
  for (const part of header.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name !== undefined && name !== '') directives.set(name.toLowerCase(), values);
  }
  return directives;
}

describe('security headers', () => {
  test("the page's CSP keeps scripts to the site and forbids framing; the other headers are set", async (t) => {
    const w = await open('desktop', 'dark');
    t.after(() => w.close());
    const response = await w.page.goto(`${server.url}/`);
    assert.ok(response !== null && response.ok(), 'the page loaded');
    const headers = await response.allHeaders();
    const csp = parseCsp(headers['content-security-policy']);

    const scriptSrc = csp.get('script-src') ?? csp.get('default-src');
    assert.ok(scriptSrc !== undefined, 'script-src (or default-src) is set');
    for (const unsafe of ["'unsafe-inline'", "'unsafe-eval'", '*', 'data:', 'http:', 'https:']) {
      assert.ok(!scriptSrc.includes(unsafe), `script-src ${scriptSrc.join(' ')} has no ${unsafe}`);
    }
    for (const [name, values] of csp) assert.ok(!values.includes("'unsafe-eval'"), `${name} has no 'unsafe-eval'`);
    assert.deepEqual(csp.get('frame-ancestors'), ["'none'"], "frame-ancestors 'none'");
    assert.deepEqual(csp.get('object-src'), ["'none'"], "object-src 'none'");

    assert.equal(headers['x-content-type-options'], 'nosniff');
    const strictPolicies = ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'];
    assert.ok(
      strictPolicies.includes(headers['referrer-policy'] ?? ''),
      `Referrer-Policy "${headers['referrer-policy']}" is one of ${strictPolicies.join(', ')}`,
    );
    const permissions = headers['permissions-policy'] ?? '';
    for (const feature of ['camera=()', 'microphone=()', 'geolocation=()']) {
      assert.ok(permissions.includes(feature), `Permissions-Policy "${permissions}" has ${feature}`);
    }
    assert.equal(headers['cross-origin-opener-policy'], 'same-origin');

    // The scripts the page runs are never sniffed into something else either.
    const script = await w.page.locator('script[type="module"][src]').first().getAttribute('src');
    assert.ok(script !== null, 'the page loads a module script');
    const asset = await fetch(new URL(script, server.url));
    assert.equal(asset.status, 200);
    assert.equal(asset.headers.get('x-content-type-options'), 'nosniff');
    assert.match(asset.headers.get('content-type') ?? '', /javascript/);
  });
});

describe('CDN', () => {
  let cdn: HttpStub;

  before(async () => {
    cdn = await startHttpStub({
      [`/bucket/${withImage.imageKey}`]: {
        status: 200,
        contentType: 'image/svg+xml',
        body: '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>',
      },
    });
  });

  after(async () => {
    await putAppConfig({ use_cdn: 0, common_cdn_bucket_url: '' });
    await cdn?.close();
  });

  async function putAppConfig(body: { use_cdn: 0 | 1; common_cdn_bucket_url: string }): Promise<void> {
    await adminApi(server, 'PUT', '/appconfig', body);
  }

  const imgSrcOf = async () => {
    const answer = await fetch(`${server.url}/`);
    return parseCsp(answer.headers.get('content-security-policy') ?? undefined).get('img-src') ?? [];
  };

  test('with the CDN on, img-src names its origin and the announcement image loads from it', async (t) => {
    assert.ok(!(await imgSrcOf()).includes(cdn.url), 'with the CDN off, img-src does not name it');
    await putAppConfig({ use_cdn: 1, common_cdn_bucket_url: `${cdn.url}/bucket` });
    const imgSrc = await imgSrcOf();
    assert.ok(imgSrc.includes(cdn.url), `img-src ${imgSrc.join(' ')} names ${cdn.url}`);

    const w = await open('desktop', 'dark');
    t.after(() => w.close());
    await w.page.goto(`${server.url}/#/announcement/${withImage.id}`);
    const image = w.page.locator('article img').first();
    await image.waitFor();
    assert.equal(await image.getAttribute('src'), `${cdn.url}/bucket/${withImage.imageKey}`);
    await loadEverything(w.page);
    assert.ok(
      await image.evaluate((element) => (element as HTMLImageElement).naturalWidth > 0),
      'the image loaded from the CDN',
    );
    assert.ok(
      cdn.requests.some((request) => request.path === `/bucket/${withImage.imageKey}`),
      'the CDN served it',
    );
    assert.deepEqual(await w.violations(), [], 'no CSP violations');
    assert.deepEqual(w.consoleErrors, [], 'no console errors');
  });
});
