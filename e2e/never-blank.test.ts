/**
 * The prerendered site without its script (docs/site.md#the-oldest-browsers-served): when the
 * entry script does not parse, throws as it starts, or never arrives, the page stays readable, its
 * links lead where they say, and no visitor sees an error. Debian's Chromium, the entry script
 * replaced or refused by request interception.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page, Route } from 'playwright-core';
import { contextOptions, launchBrowser } from './support/browser.js';
import { entryScript, nextFrames, untilParsed } from './support/page-helpers.js';
import { startServer, type RunningServer } from './support/server.js';

let server: RunningServer;
let browser: Browser;
before(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const failures: Record<string, (route: Route) => Promise<void>> = {
  'does not parse': (route) => route.fulfill({ contentType: 'text/javascript', body: 'export const broken = ;' }),
  'throws as it starts': (route) =>
    route.fulfill({ contentType: 'text/javascript', body: "throw new Error('the site failed to start');" }),
  'never arrives': (route) => route.abort('connectionrefused'),
};

/** What a visitor could take for an error: the site's own messages name a failure so. */
const errorWords = /错误|出错|失败|重试|error/i;

/** Settles once the entry script asked for since the last `expectScript` has been answered. */
let served: Promise<void> = Promise.resolve();
let answered = () => {};
function expectScript(): void {
  served = new Promise((resolve) => {
    answered = resolve;
  });
}

/** The main part's text, once the page asked for its script and met the failure. */
async function settledText(page: Page): Promise<string> {
  await served;
  await page.waitForLoadState('load');
  await nextFrames(page);
  assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-running')), false);
  return page.locator('main').innerText();
}

for (const [failure, answer] of Object.entries(failures)) {
  describe(`the entry script ${failure}`, () => {
    let page: Page;
    before(async () => {
      const context = await browser.newContext(contextOptions('phone'));
      page = await context.newPage();
      await page.route(entryScript, async (route) => {
        await answer(route);
        answered();
      });
    });
    after(() => page.context().close());

    test('the landing page is readable, without an error', async () => {
      await page.goto('about:blank');
      expectScript();
      await page.goto(`${server.url}/`, untilParsed);
      const text = await settledText(page);
      assert.ok(text.length > 200, text);
      assert.doesNotMatch(text, errorWords);
      assert.equal(await page.locator('main h1').isVisible(), true);
    });

    test('the header link opens the download screen', async () => {
      await page.goto('about:blank');
      expectScript();
      await page.goto(`${server.url}/`, untilParsed);
      await settledText(page);
      await page.locator('header a[href="#/download"]').first().click();
      await page.waitForFunction(() => document.querySelectorAll('li[data-platform]').length === 4, null, {
        timeout: 5_000,
      });
      const text = await page.locator('main').innerText();
      assert.doesNotMatch(text, errorWords);
      assert.equal(await page.locator('li[data-platform]').first().isVisible(), true);
    });

    test('the download screen opened directly is whole, its downloads answer', async () => {
      await page.goto('about:blank');
      expectScript();
      await page.goto(`${server.url}/#/download`, untilParsed);
      const text = await settledText(page);
      assert.doesNotMatch(text, errorWords);
      const hrefs = await page
        .locator('li[data-platform] a[href]')
        .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
      assert.ok(hrefs.length >= 4, hrefs.join(' '));
      for (const href of hrefs.filter((each) => each.startsWith(server.url))) {
        assert.ok((await fetch(href, { redirect: 'manual' })).status < 400, `${href} answers`);
      }
    });
  });
}
