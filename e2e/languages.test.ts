/** Languages: the switcher, ?lang=, the stored choice, the browser's languages, <html lang>,
 * the title, dates per language, catalogs that all carry the same keys, and the page the server
 * prerenders in the visitor's language. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { contextOptions } from './support/browser.js';
import {
  assertNoProblems,
  holdScript,
  openPage,
  recordCspViolations,
  routeOf,
  untilParsed,
} from './support/page-helpers.js';
import { repoRoot, type RunningServer } from './support/server.js';
import { startServerAndBrowser, stopServerAndBrowser } from './support/per-file.js';

const storageKey = 'chat-site.language';
const site = JSON.parse(readFileSync(join(repoRoot, 'site.config.json'), 'utf8')) as {
  productName: string;
  contact: { label: string }[];
};
const taglines = {
  'zh-CN': '让世界更近，让沟通更有价值',
  'zh-TW': '讓世界更近，讓溝通更有價值',
  en: 'Bringing the world closer, making every conversation count',
} as const;
/** The page's title names the product of the site config (site.config.json). */
const titles = {
  'zh-CN': '星聊 - 下载与公告',
  'zh-TW': '星聊 - 下載與公告',
  en: '星聊 - Download and announcements',
} as const;
type Language = keyof typeof taglines;

let server: RunningServer;
let browser: Browser;

before(async () => ({ server, browser } = await startServerAndBrowser()));
after(() => stopServerAndBrowser(server, browser));

async function assertLanguage(page: Page, language: Language): Promise<void> {
  await page.getByText(taglines[language], { exact: true }).first().waitFor({ timeout: 10_000 });
  assert.equal(await page.getAttribute('html', 'lang'), language);
  assert.equal(await page.title(), titles[language]);
  assert.equal(await page.getByRole('combobox', { name: languageLabel[language] }).inputValue(), language);
}
const languageLabel = { 'zh-CN': '语言', 'zh-TW': '語言', en: 'Language' } as const;

const markDocument = (page: Page) => page.evaluate(() => ((window as { mark?: string }).mark = 'first document'));
const documentMark = (page: Page) => page.evaluate(() => (window as { mark?: string }).mark);

describe('catalogs', () => {
  test('every catalog file has the same keys and the same {placeholders} as every other', async () => {
    const dir = join(repoRoot, 'web/src/config');
    const files = readdirSync(dir).filter((name) => /^messages\..+\.ts$/.test(name));
    assert.ok(files.length >= 3, `catalogs found: ${files.join(', ')}`);
    const catalogs = new Map<string, Record<string, string>>();
    for (const file of files) {
      const module = (await import(pathToFileURL(join(dir, file)).href)) as Record<string, unknown>;
      const exported = Object.values(module).filter(
        (value): value is Record<string, string> => typeof value === 'object' && value !== null,
      );
      assert.equal(exported.length, 1, `${file} exports one catalog`);
      catalogs.set(file, exported[0] ?? {});
    }
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const [fileA, a] of catalogs) {
      for (const [fileB, b] of catalogs) {
        if (fileA === fileB) continue;
        const missing = Object.keys(a).filter((key) => !(key in b));
        assert.deepEqual(missing, [], `${fileB} lacks keys that ${fileA} has`);
        for (const key of Object.keys(a)) {
          if (key in b) assert.deepEqual(placeholders(b[key] ?? ''), placeholders(a[key] ?? ''), `${fileB} ${key}`);
        }
      }
      for (const [key, text] of Object.entries(a)) assert.ok(text.trim() !== '', `${fileA} ${key} is empty`);
    }
  });
});

describe('choosing a language', () => {
  for (const viewport of ['phone', 'desktop'] as const) {
    test(`${viewport}: the switcher re-renders every text without a reload, and the choice survives one`, async (t) => {
      const open = await openPage(browser, viewport);
      t.after(() => open.close());
      const { page } = open;
      await page.goto(`${server.url}/#/`);
      await assertLanguage(page, 'zh-CN');
      await markDocument(page);

      await page.getByRole('combobox', { name: '语言' }).selectOption('en');
      await assertLanguage(page, 'en');
      await page.getByRole('link', { name: 'Announcements', exact: true }).first().waitFor();
      assert.equal(await documentMark(page), 'first document', 'no reload');
      assert.equal(await page.evaluate((key) => localStorage.getItem(key), storageKey), 'en');

      // Every interface text is English now: what is left in Chinese is configured or published
      // content (product name, contact labels, announcement titles) and the languages' own names.
      const text = await page.evaluate(() => {
        const clone = document.body.cloneNode(true) as HTMLElement;
        for (const element of clone.querySelectorAll('option, section[aria-label="Pinned announcements"] li')) {
          element.remove();
        }
        return clone.innerText;
      });
      let rest = text;
      for (const allowed of [site.productName, ...site.contact.map((entry) => entry.label)]) {
        rest = rest.split(allowed).join('');
      }
      assert.doesNotMatch(rest, /\p{Script=Han}/u, `Chinese left in the English page:\n${rest}`);

      await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-TW');
      await assertLanguage(page, 'zh-TW');
      assert.equal(await documentMark(page), 'first document', 'no reload');

      await page.reload();
      await assertLanguage(page, 'zh-TW');
      await page.goto(`${server.url}/#/download`);
      await page.getByRole('heading', { level: 1, name: `下載${site.productName}` }).waitFor();
      assertNoProblems(open);
    });
  }

  test('?lang= in the query string wins over the stored choice, and becomes it', async (t) => {
    const open = await openPage(browser, 'desktop', { localStorage: { [storageKey]: 'en' } });
    t.after(() => open.close());
    await open.page.goto(`${server.url}/#/`);
    await assertLanguage(open.page, 'en');
    await open.page.goto(`${server.url}/?lang=zh-TW#/`);
    await assertLanguage(open.page, 'zh-TW');
    assert.equal(await open.page.evaluate((key) => localStorage.getItem(key), storageKey), 'zh-TW');
    assertNoProblems(open);
  });

  test('?lang= inside the hash works too, and leaves the route intact', async (t) => {
    const open = await openPage(browser, 'phone', { localStorage: { [storageKey]: 'zh-TW' } });
    t.after(() => open.close());
    const { page } = open;
    await page.goto(`${server.url}/#/download?lang=en`);
    await page.getByRole('heading', { level: 1, name: `Download ${site.productName}` }).waitFor();
    assert.equal(routeOf(page), '/download');
    assert.equal(await page.getAttribute('html', 'lang'), 'en');

    // A link followed later in the visit switches as well.
    await markDocument(page);
    await page.evaluate(() => (location.hash = '#/downloadHelp?lang=zh-CN'));
    await page.getByRole('heading', { level: 1, name: `${site.productName}下载教程` }).waitFor();
    assert.equal(routeOf(page), '/downloadHelp');
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
    assert.equal(await documentMark(page), 'first document', 'no reload');
    assertNoProblems(open);
  });

  test('an unknown ?lang= is ignored: the stored choice applies', async (t) => {
    const open = await openPage(browser, 'desktop', { localStorage: { [storageKey]: 'en' } });
    t.after(() => open.close());
    await open.page.goto(`${server.url}/?lang=fr#/`);
    await assertLanguage(open.page, 'en');
  });

  const browserCases: [string, Language][] = [
    ['zh-HK', 'zh-TW'],
    ['zh-TW', 'zh-TW'],
    ['zh-SG', 'zh-CN'],
    ['en-GB', 'en'],
    ['fr-FR', 'zh-CN'],
  ];
  for (const [locale, expected] of browserCases) {
    test(`with nothing chosen, a browser in ${locale} gets ${expected}`, async (t) => {
      const context = await browser.newContext(contextOptions('desktop', { locale }));
      t.after(() => context.close());
      const page = await context.newPage();
      await page.goto(`${server.url}/#/`);
      await assertLanguage(page, expected);
      assert.equal(await page.evaluate((key) => localStorage.getItem(key), storageKey), null, 'not stored');
    });
  }

  test('a stored choice wins over the browser language', async (t) => {
    const context = await browser.newContext(contextOptions('desktop', { locale: 'en-US' }));
    t.after(() => context.close());
    await context.addInitScript((key) => localStorage.setItem(key, 'zh-TW'), storageKey);
    const page = await context.newPage();
    await page.goto(`${server.url}/#/`);
    await assertLanguage(page, 'zh-TW');
  });
});

describe('the page prerendered in the visitor’s language', () => {
  /** The page as first painted, before the site's script (held back) runs: its language, and
   * whether the prerendered landing page is on screen in it. */
  async function firstPaint(page: Page, url: string) {
    const release = await holdScript(page);
    const response = await page.goto(url, untilParsed);
    const seen = await page.evaluate(() => ({
      lang: document.documentElement.lang,
      running: document.documentElement.hasAttribute('data-running'),
      off: document.documentElement.classList.contains('prerender-off'),
      text: document.getElementById('root')?.innerText ?? '',
    }));
    return { release, response, ...seen };
  }

  const browsers: [string, Language][] = [
    ['en-US', 'en'],
    ['zh-HK', 'zh-TW'],
  ];
  for (const [locale, language] of browsers) {
    test(`a browser in ${locale} gets the landing page in ${language} in the first paint, which the script adopts`, async (t) => {
      const context = await browser.newContext(contextOptions('phone', { locale }));
      t.after(() => context.close());
      // The page of each language is allowed its own inline scripts (server/src/page/csp.ts).
      const violations = await recordCspViolations(context);
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      const first = await firstPaint(page, `${server.url}/`);
      assert.equal(first.running, false, 'the script has not run');
      assert.equal(first.lang, language);
      assert.equal(first.off, false, 'the prerendered page is on');
      assert.ok(first.text.includes(taglines[language]), first.text.slice(0, 200));
      assert.match(String(first.response?.headers().vary), /accept-language/i);
      // The script takes the page over by hydrating it: the tagline is the node first painted.
      const marked = await page.evaluate((text) => {
        const node = [...document.querySelectorAll('p, h1, h2, span')].find((el) => el.textContent === text);
        if (node) (node as Element & { firstPainted?: boolean }).firstPainted = true;
        return node !== undefined;
      }, taglines[language]);
      assert.ok(marked, 'the tagline is an element of its own');
      first.release();
      await page.locator('html[data-rendered]').waitFor({ state: 'attached' });
      await assertLanguage(page, language);
      const adopted = await page.evaluate(
        (text) =>
          [...document.querySelectorAll('p, h1, h2, span')].some(
            (el) => el.textContent === text && (el as Element & { firstPainted?: boolean }).firstPainted === true,
          ),
        taglines[language],
      );
      assert.ok(adopted, 'the first painted tagline was kept (hydrated), not drawn again');
      assert.deepEqual(problems, []);
      assert.deepEqual(violations, []);
    });
  }

  test('choosing a language sets the cookie: the next load comes prerendered in it', async (t) => {
    const open = await openPage(browser, 'desktop');
    t.after(() => open.close());
    const { page, context } = open;
    await page.goto(`${server.url}/#/`);
    await assertLanguage(page, 'zh-CN');
    await page.getByRole('combobox', { name: '语言' }).selectOption('en');
    await assertLanguage(page, 'en');
    const cookie = (await context.cookies()).find((entry) => entry.name === 'lang');
    assert.equal(cookie?.value, 'en');
    assert.equal(cookie?.path, '/');
    assert.equal(cookie?.sameSite, 'Lax');
    assert.ok((cookie?.expires ?? 0) > Date.now() / 1000 + 364 * 24 * 3600, 'kept a year');

    const next = await context.newPage();
    const first = await firstPaint(next, `${server.url}/#/`);
    assert.equal(first.running, false);
    assert.equal(first.lang, 'en', 'the server sent the English page for the cookie');
    assert.equal(first.off, false);
    assert.ok(first.text.includes(taglines.en));
    first.release();
    await assertLanguage(next, 'en');
    assertNoProblems(open);
  });

  test('a choice stored without the cookie still wins: the default page is turned off, then the cookie is written', async (t) => {
    const open = await openPage(browser, 'desktop', { prerendered: true, localStorage: { [storageKey]: 'zh-TW' } });
    t.after(() => open.close());
    const { page, context } = open;
    const first = await firstPaint(page, `${server.url}/`);
    assert.equal(first.lang, 'zh-CN', 'the server knows no choice yet');
    assert.equal(first.off, true, 'the boot script turned the zh-CN page off');
    first.release();
    await assertLanguage(page, 'zh-TW');
    await page.waitForFunction(() => document.cookie.includes('lang=zh-TW'));
    assert.equal((await context.cookies()).find((entry) => entry.name === 'lang')?.value, 'zh-TW');

    const again = await firstPaint(page, `${server.url}/`);
    assert.equal(again.lang, 'zh-TW');
    assert.equal(again.off, false, 'prerendered in the stored choice now');
    again.release();
    await assertLanguage(page, 'zh-TW');
    assertNoProblems(open);
  });
});

describe('dates and content per language', () => {
  test('desktop: the publish date follows the language; the announcement body stays as published', async (t) => {
    const open = await openPage(browser, 'desktop');
    t.after(() => open.close());
    const { page } = open;
    await page.goto(`${server.url}/#/announcements/11`);
    const pane = page.getByTestId('announcement-pane');
    const dateLine = pane.getByText(/^发布日期：/);
    await dateLine.waitFor();
    const isoDate = /^发布日期：(\d{4})-(\d{2})-(\d{2})$/.exec((await dateLine.textContent()) ?? '');
    assert.ok(isoDate, 'zh-CN shows YYYY-MM-DD');
    const [, year = '', month = '', day = ''] = isoDate;
    const heading = await pane.getByRole('heading', { level: 1 }).textContent();
    const body = await pane.locator('.prose-bulletin').innerHTML();

    await page.getByRole('combobox', { name: '语言' }).selectOption('zh-TW');
    await pane.getByText(`發布日期：${year}/${month}/${day}`, { exact: true }).waitFor();

    await page.getByRole('combobox', { name: '語言' }).selectOption('en');
    const english = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day))).toLocaleDateString('en', {
      timeZone: 'UTC',
      year: 'numeric',
      month: 'short',
      day: 'numeric',
    });
    await pane.getByText(`Published ${english}`, { exact: true }).waitFor();
    assert.match(english, /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    assert.equal(await pane.getByRole('heading', { level: 1 }).textContent(), heading, 'title as published');
    assert.equal(await pane.locator('.prose-bulletin').innerHTML(), body, 'body as published');
    // The list's dates too.
    await page.getByRole('list').first().getByText(english, { exact: true }).first().waitFor();
    assertNoProblems(open);
  });
});
