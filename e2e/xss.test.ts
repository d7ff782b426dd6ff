/**
 * The XSS corpus (fixtures/xss-vectors.ts) in every place the site shows an announcement: the
 * list and detail pane at desktop width, the single view at 375 px, and the pinned strip.
 *
 * Each vector is stored twice: raw, written straight into the server's SQLite file so only the
 * site's own sanitizer stands between it and the page, and through the admin API, which stores
 * the server-cleaned HTML. The pages run with the Content-Security-Policy bypassed: the policy
 * would block inline handlers and foreign requests by itself and so hide a sanitizer that let
 * them through. What is proven: no payload ran (window.__xss unset, no dialog, no uncaught
 * error), no request went to any origin but the site's (the CDN is off), the rendered bodies hold
 * nothing outside the allowlist, and every title is shown as the literal text it is.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import type { Browser, Locator, Page } from 'playwright-core';
import { xssVectors } from './fixtures/xss-vectors.js';
import { contextOptions, type viewports } from './support/browser.js';
import { nextFrames, scriptHasTakenOver } from './support/page-helpers.js';
import { adminApi } from './support/admin-api.js';
import type { RunningServer } from './support/server.js';
import { startServerAndBrowser, stopServerAndBrowser } from './support/per-file.js';

interface Seeded {
  id: number;
  title: string;
  pinned: boolean;
  source: 'raw' | 'api';
  /** The marker paragraphs that must come out as paragraphs: one after each vector. */
  markers: string[];
}

const perBody = 20;
/** Ends whatever state a vector leaves the HTML parser in (an open attribute or comment, a
 * raw-text element, foreign content), so the next vector in the body is parsed as if alone. The
 * </p> comes before </noscript>: a paragraph left open inside <noscript> (parsed as elements, as
 * a sanitizer parses) makes the parser ignore </noscript>, and the rest of the body would stay
 * inside it. */
const reset = `"'>--></script></style></textarea></title></xmp></iframe></noembed></noframes></p></noscript></template></select></table></svg></math>`;

/** Vectors after which nothing in the same body can be parsed as it would be alone: <plaintext>
 * makes the rest of the document text, and a <form> left open inside <math> cannot be closed
 * again, so whatever follows stays inside MathML. Each goes last in a body of its own batch, one
 * to a batch: a second one after it would never be parsed as a vector. */
const takesTheRest = (vector: string) => vector.includes('<plaintext') || vector.startsWith('<form><math>');

function batches(vectors: readonly string[]): string[][] {
  const others = vectors.filter((v) => !takesTheRest(v));
  const groups: string[][] = [];
  for (let start = 0; start < others.length; start += perBody) groups.push(others.slice(start, start + perBody));
  vectors.filter(takesTheRest).forEach((vector, index) => {
    const group = groups[index];
    if (group === undefined) groups.push([vector]);
    else group.push(vector);
  });
  return groups;
}

/** Each vector, then `reset`, then a marker paragraph naming the vector (its index in the corpus).
 * The marker comes out as a paragraph only if the vector was read to its end, so every vector
 * is known to have reached the page whole. */
function bodyOf(group: string[]): { content: string; markers: string[] } {
  const markers = group.map((vector) => `§${xssVectors.indexOf(vector)}§`);
  const content = group.map((vector, index) => `${vector}${reset}<p>${markers[index]}</p>`).join('\n');
  return { content, markers: markers.filter((_, index) => !takesTheRest(group[index] ?? '')) };
}

/** A vector the admin API takes as a title: at most 200 characters, no NUL, no outer spaces. */
const titleOf = (group: string[], pick: 'first' | 'last') => {
  const usable = group.filter((v) => v.length <= 200 && !v.includes('\u0000') && v.trim() === v);
  return (pick === 'first' ? usable[0] : usable.at(-1)) ?? group[0] ?? 'x';
};

let server: RunningServer;
let browser: Browser;
let origin: string;
const seeded: Seeded[] = [];

function seedRaw(): void {
  const sqlite = new Database(server.database.file ?? '');
  try {
    sqlite.pragma('busy_timeout = 5000');
    const insert = sqlite.prepare(
      'INSERT INTO bulletins (title, content, pinned, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    );
    batches(xssVectors).forEach((group, index) => {
      const title = titleOf(group, 'first');
      const pinned = index % 3 === 0;
      const at = new Date(Date.now() - (index + 1) * 60_000).toISOString();
      const { content, markers } = bodyOf(group);
      const { lastInsertRowid } = insert.run(title, content, pinned ? 1 : 0, at, at);
      seeded.push({ id: Number(lastInsertRowid), title, pinned, source: 'raw', markers });
    });
  } finally {
    sqlite.close();
  }
}

async function seedThroughApi(): Promise<void> {
  // The admin API refuses text holding NUL; those vectors reach the site through the raw rows.
  const storable = xssVectors.filter((v) => !v.includes('\u0000'));
  for (const [index, group] of batches(storable).entries()) {
    const title = titleOf(group, 'last');
    const pinned = index % 3 === 1;
    const { content, markers } = bodyOf(group);
    const { id } = await adminApi<{ id: number }>(server, 'POST', '/bulletins', {
      title,
      content,
      topup: pinned ? 1 : 0,
    });
    seeded.push({ id, title, pinned, source: 'api', markers });
  }
}

before(async () => {
  ({ server, browser } = await startServerAndBrowser({ DEMO_CONTENT: '0' }));
  origin = new URL(server.url).origin;
  seedRaw();
  await seedThroughApi();
});
after(() => stopServerAndBrowser(server, browser));

/** One page under watch: dialogs, uncaught errors, popups and every request it makes. */
interface Watched {
  page: Page;
  problems: string[];
  settle(): Promise<void>;
  close(): Promise<void>;
}

async function openWatched(viewport: keyof typeof viewports): Promise<Watched> {
  const context = await browser.newContext(contextOptions(viewport, { bypassCSP: true }));
  // A string, not a function: the test runner's transpiler would wrap a function's inner arrows in
  // a helper the page does not have.
  await context.addInitScript(`
    window.__dialogs = [];
    for (const name of ['alert', 'confirm', 'prompt', 'print']) {
      Object.defineProperty(window, name, { value: (...args) => void window.__dialogs.push(name + '(' + args + ')') });
    }
  `);
  // Nothing may leave the machine even if a payload got through: foreign requests are recorded,
  // then refused.
  await context.route(
    (url) => url.origin !== origin,
    (route) => route.abort('blockedbyclient'),
  );
  const page = await context.newPage();
  const problems: string[] = [];
  let inflight = 0;
  let changes = 0;
  let idle = () => {};
  const change = (delta: number) => {
    inflight += delta;
    changes += 1;
    if (inflight === 0) idle();
  };
  const noneInFlight = () =>
    inflight === 0
      ? Promise.resolve()
      : new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`${inflight} requests still in flight`)), 15_000);
          idle = () => {
            clearTimeout(timer);
            resolve();
          };
        });
  page.on('request', (request) => {
    change(1);
    const url = request.url();
    if (!url.startsWith(`${origin}/`)) problems.push(`request to ${url.slice(0, 120)}`);
  });
  page.on('requestfinished', () => change(-1));
  page.on('requestfailed', () => change(-1));
  page.on('dialog', (dialog) => {
    problems.push(`dialog ${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('popup', (popup) => problems.push(`popup ${popup.url()}`));
  return {
    page,
    problems,
    // Settled once no request is in flight, every image the page loads has loaded or failed (its
    // error handler dispatched; a lazy one out of view loads nothing) and the page has drawn since
    // (autofocus, ontoggle), with nothing new asked.
    settle: async () => {
      for (;;) {
        await noneInFlight();
        const before = changes;
        await page.waitForFunction(() =>
          [...document.images].every((image) => image.complete || image.loading === 'lazy'),
        );
        await nextFrames(page);
        if (inflight === 0 && changes === before) return;
      }
    },
    close: () => context.close(),
  };
}

/** What the page shows that no payload may have caused: the markers, and inside `scope`
 * elements or attributes the allowlist never lets through. An announcement body is held to more
 * (no id or name: they would shadow globals) than the site's own navigation around titles. */
async function pageProblems(page: Page, scope: string, body: boolean): Promise<string[]> {
  return page.evaluate(
    ({ selector, body }) => {
      const found: string[] = [];
      const w = window as unknown as { __xss?: unknown; __dialogs: string[] };
      if (w.__xss !== undefined) found.push(`window.__xss is ${String(w.__xss)}`);
      for (const call of w.__dialogs) found.push(`dialog ${call}`);
      const hostile =
        'script,style,iframe,frame,object,embed,applet,svg:not([aria-hidden="true"]),math,form,input,select,' +
        'textarea,base,meta,link,video,audio,source,picture,details,marquee,template,noscript,portal' +
        (body ? ',button' : ',img');
      const hostileAttributes = [
        'srcset',
        'background',
        'poster',
        'formaction',
        ...(body ? ['style', 'id', 'name'] : []),
      ];
      for (const root of document.querySelectorAll(selector)) {
        for (const element of root.querySelectorAll(hostile)) found.push(`<${element.localName}> rendered`);
        for (const element of root.querySelectorAll('*')) {
          for (const { name, value } of element.attributes) {
            if (/^on/i.test(name) || hostileAttributes.includes(name))
              found.push(`<${element.localName} ${name}> rendered`);
            if (['href', 'src'].includes(name) && /^\s*(javascript|vbscript|data):/i.test(value)) {
              found.push(`<${element.localName} ${name}="${value.slice(0, 40)}"> rendered`);
            }
          }
        }
      }
      return found;
    },
    { selector: scope, body },
  );
}

/** Opens one announcement in one view; answers everything wrong with what it showed. */
async function visit(viewport: keyof typeof viewports, route: string, bulletin: Seeded): Promise<string[]> {
  const watched = await openWatched(viewport);
  const { page } = watched;
  try {
    await page.goto(`${server.url}/#${route}`);
    const shown = await page
      .waitForFunction(
        (title) => [...document.querySelectorAll('article h1')].some((h) => h.textContent === title),
        bulletin.title,
        { timeout: 10_000 },
      )
      .then(() => true)
      .catch(() => false);
    await watched.settle();
    // The payload lands in the cleaned body; the article around it holds the site's own controls
    // (the share button).
    const found = [...watched.problems, ...(await pageProblems(page, 'article .prose-bulletin', true))];
    if (!shown) found.push('the title is not the literal text of the heading');
    const paragraphs = await page.evaluate(() => [...document.querySelectorAll('article p')].map((p) => p.textContent));
    const lost = bulletin.markers.filter((marker) => !paragraphs.includes(marker));
    if (lost.length > 0) found.push(`what follows vectors ${lost.join(' ')} was swallowed`);
    if (viewport === 'desktop') {
      const listed = await page.evaluate(
        (title) => document.querySelector('main nav a[aria-current="true"]')?.textContent?.includes(title) ?? false,
        bulletin.title,
      );
      if (!listed) found.push('the selected list item does not show the title as text');
      // The list's navigation; the header's holds the site's own language <select>.
      found.push(...(await pageProblems(page, 'main nav', false)));
    }
    return found.map((what) => `${bulletin.source} #${bulletin.id} ${viewport} ${route}: ${what}`);
  } finally {
    await watched.close();
  }
}

/** Every announcement from one source in one view, two pages at a time. */
async function sweep(source: Seeded['source'], viewport: keyof typeof viewports): Promise<void> {
  const queue = seeded.filter((b) => b.source === source);
  const failures: string[] = [];
  const worker = async () => {
    for (let bulletin = queue.shift(); bulletin !== undefined; bulletin = queue.shift()) {
      const route = viewport === 'desktop' ? `/announcements/${bulletin.id}` : `/announcement/${bulletin.id}`;
      failures.push(...(await visit(viewport, route, bulletin)));
    }
  };
  await Promise.all([worker(), worker()]);
  assert.deepEqual(failures, [], `\n${failures.sort().join('\n')}`);
}

/** Each expected title (every one, or the pinned ones in the strip) is in the text of one of
 * `links`, and nothing in `scope` or on the page shows a payload's work. */
async function checkTitles(
  t: TestContext,
  viewport: keyof typeof viewports,
  route: string,
  scope: string,
  linksOf: (page: Page) => Locator,
): Promise<void> {
  const watched = await openWatched(viewport);
  t.after(() => watched.close());
  await watched.page.goto(`${server.url}/#${route}`);
  const links = linksOf(watched.page);
  await links.first().waitFor();
  // The first titles the server wrote into the page come before the script: text too.
  const written = await links.evaluateAll((all) => all.map((a) => a.textContent ?? ''));
  assert.ok(
    written.every((text) => seeded.some((b) => text.includes(b.title))),
    written.join('\n'),
  );
  await scriptHasTakenOver(watched.page);
  await watched.settle();
  const texts = await links.evaluateAll((all) => all.map((a) => a.textContent ?? ''));
  const expected = route === '/' ? seeded.filter((b) => b.pinned) : seeded;
  assert.equal(texts.length, expected.length);
  const missing = expected.filter((b) => !texts.some((text) => text.includes(b.title)));
  const all = [
    ...watched.problems,
    ...(await pageProblems(watched.page, scope, false)),
    ...missing.map((b) => `${b.source} #${b.id}: title not shown as text`),
  ];
  assert.deepEqual(all, [], `\n${all.join('\n')}`);
}

test('the harness notices a script that ran, a dialog and a foreign request', async (t) => {
  const watched = await openWatched('desktop');
  t.after(() => watched.close());
  await watched.page.goto(`${server.url}/#/announcements`);
  await watched.page.evaluate(() => {
    document.body.insertAdjacentHTML('beforeend', '<article><img src=x onerror="window.__xss=1;alert(1)"></article>');
    void fetch('http://evil.example.test/probe').catch(() => undefined);
  });
  await watched.settle();
  const found = [...watched.problems, ...(await pageProblems(watched.page, 'article', true))].join('\n');
  assert.match(found, /window\.__xss is 1/);
  assert.match(found, /dialog alert\(1\)/);
  assert.match(found, /request to http:\/\/evil\.example\.test\/probe/);
  assert.match(found, /<img onerror> rendered/);
});

describe(`${xssVectors.length} vectors, ${perBody} to a body`, () => {
  test('stored raw (the site sanitizer alone): list and detail pane at desktop width', () => sweep('raw', 'desktop'));
  test('stored raw (the site sanitizer alone): single view at 375 px', () => sweep('raw', 'phone'));
  test('published through the admin API: list and detail pane at desktop width', () => sweep('api', 'desktop'));
  test('published through the admin API: single view at 375 px', () => sweep('api', 'phone'));

  for (const viewport of ['desktop', 'phone'] as const) {
    test(`${viewport}: the pinned strip on / shows every pinned title as text`, async (t) => {
      await checkTitles(t, viewport, '/', 'section[aria-label="置顶公告"]', (page) =>
        page.getByRole('region', { name: '置顶公告' }).getByRole('listitem').getByRole('link'),
      );
    });
  }

  test('desktop: the list shows every title as text', async (t) => {
    await checkTitles(t, 'desktop', '/announcements', 'main nav', (page) =>
      page.getByRole('navigation', { name: '平台公告' }).getByRole('link'),
    );
  });
});
