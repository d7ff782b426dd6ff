/**
 * The site in the oldest engines it serves and a few after them, real old Chromium builds from
 * npm (support/old-chromium.ts): every screen readable, styled, its downloads and language picker
 * working, with no script error (docs/site.md#the-oldest-browsers-served). One browser per
 * build, one page for all its visits. The page is probed with code written as text: these engines
 * cannot parse what the test's own compiler writes.
 */
import assert from 'node:assert/strict';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'puppeteer-core-9';
import { launchOldChromium, oldChromiums } from './support/old-chromium.js';
import { startServer, type RunningServer } from './support/server.js';

let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server.stop();
});

const phone = { width: 390, height: 844 };

/** What the probe reads of a screen: its language, header logo, first heading, download cards
 * and announcement rows, and whether the site's script took over. */
interface Seen {
  lang: string;
  running: boolean;
  logo: number[];
  heading: string;
  cards: { platform: string; href: string; top: number }[];
  rows: number;
  text: string;
}
const rowLinks = `'a[href*="#/announcement"]:not([href="#/announcements"])'`;
const probe = `(() => {
  var rowLinks = ${rowLinks};
  var box = function (el) { var r = el.getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]; };
  var logo = document.querySelector('header svg');
  var heading = document.querySelector('h1') || document.querySelector('h2');
  return {
    lang: document.documentElement.lang,
    running: document.documentElement.hasAttribute('data-running'),
    logo: logo ? box(logo) : [],
    heading: heading ? heading.textContent.trim() : '',
    cards: Array.prototype.map.call(document.querySelectorAll('li[data-platform]'), function (card) {
      var link = card.querySelector('a[aria-label]');
      return { platform: card.getAttribute('data-platform'), href: link ? link.href : '', top: Math.round(card.getBoundingClientRect().top) };
    }),
    rows: document.querySelectorAll(rowLinks).length,
    text: (document.querySelector('main') || document.body).innerText.slice(0, 200)
  };
})()`;

/** Each link and button of the screen's main part: its own background colour and the contrast of
 * its text against the first opaque background behind it (WCAG's ratio). */
const readability = `(() => {
  var rgb = function (value) { return (value.match(/[\\d.]+/g) || []).map(Number); };
  var opaque = function (value) { var c = rgb(value); return c.length === 3 || (c.length === 4 && c[3] > 0); };
  var light = function (c) {
    var l = c.slice(0, 3).map(function (v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
  };
  return Array.prototype.map.call(document.querySelectorAll('main a, main button'), function (el) {
    var behind = el;
    while (behind && !opaque(getComputedStyle(behind).backgroundColor)) behind = behind.parentElement;
    var back = light(rgb(behind ? getComputedStyle(behind).backgroundColor : 'rgb(255,255,255)'));
    var fore = light(rgb(getComputedStyle(el).color));
    return {
      text: el.textContent.trim().slice(0, 30),
      background: getComputedStyle(el).backgroundColor,
      contrast: Math.round(((Math.max(back, fore) + 0.05) / (Math.min(back, fore) + 0.05)) * 10) / 10
    };
  });
})()`;

/** What the page has come to, for an error when it does not get where a test waits for. */
const state = `(() => {
  var html = document.documentElement;
  return {
    url: location.href,
    readyState: document.readyState,
    visibility: document.visibilityState,
    html: Array.prototype.map.call(html.attributes, function (a) { return a.name + '=' + a.value; }).join(' '),
    scripts: Array.prototype.map.call(document.scripts, function (s) { return s.src || 'inline'; }),
    text: document.body ? document.body.innerText.slice(0, 200) : ''
  };
})()`;

/** What each build's page printed and which of its requests failed, kept for that error. */
const heard = new Map<Page, string[]>();

/** Waits until `predicate` (code as text) is true, polling on a timer rather than on frames; on
 * a timeout, says what the page had come to and what it printed. */
async function until(page: Page, predicate: string, timeout: number): Promise<void> {
  try {
    await page.waitForFunction(predicate, { polling: 100, timeout });
  } catch (error) {
    const seen = await page.evaluate(state).catch((reason: unknown) => String(reason));
    throw new Error(
      `${String(error)}\nwaiting for ${predicate}\npage: ${JSON.stringify(seen)}\nheard: ${JSON.stringify(heard.get(page))}`,
      { cause: error },
    );
  }
}

/** Opens `path` afresh (a new document, not a hash change) and waits for the site's script to
 * have rendered it, then reads it. */
async function visit(page: Page, path: string, ready = 'true', base = server.url): Promise<Seen> {
  await page.goto('about:blank');
  await page.goto(base + path, { waitUntil: 'load' });
  await until(page, `document.documentElement.hasAttribute('data-rendered') && (${ready})`, 20_000);
  return (await page.evaluate(probe)) as Seen;
}

/** `target` behind a proxy that holds each picture (.svg) back 2 s. The engines' own request
 * interception cannot: Chromium 74 sends it no request at all. */
async function slowPictures(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const held = new Set<NodeJS.Timeout>();
  const proxy = createServer((request, response) => {
    const forward = () => {
      const upstream = httpRequest(
        new URL(request.url ?? '/', target),
        { method: request.method, headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on('error', () => response.destroy());
      request.pipe(upstream);
    };
    if (!new URL(request.url ?? '/', target).pathname.endsWith('.svg')) return forward();
    const timer = setTimeout(() => {
      held.delete(timer);
      forward();
    }, 2000);
    held.add(timer);
  });
  await new Promise<void>((listening) => proxy.listen(0, '127.0.0.1', listening));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      for (const timer of held) clearTimeout(timer);
      proxy.closeAllConnections();
      return new Promise((closed) => proxy.close(() => closed()));
    },
  };
}

/** Records a page's script errors in `errors`: thrown, or caught by React's error boundary and
 * logged; and, for the error a wait may end with, all it printed and the requests that failed. */
function watch(page: Page, errors: string[]): void {
  page.on('pageerror', (error) => errors.push(String(error)));
  const log: string[] = [];
  heard.set(page, log);
  page.on('console', (message) => {
    log.push(`${message.type()}: ${message.text()}`);
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('requestfailed', (request) => log.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
}

for (const build of oldChromiums) {
  describe(`Chromium ${build.version}`, () => {
    let browser: Browser;
    let page: Page;
    const errors: string[] = [];
    after(() => browser?.close());
    before(async () => {
      browser = await launchOldChromium(build);
      page = await browser.newPage();
      watch(page, errors);
      await page.setViewport(phone);
      const agent = await browser.version();
      assert.match(agent, new RegExp(`/${build.version}\\.`), 'the package carries the build it names');
    });

    test('the landing page is styled and the script runs', async () => {
      // The pinned strip's announcements are the last part the script draws.
      const seen = await visit(page, '/', `document.querySelector(${rowLinks})`);
      assert.equal(seen.running, true);
      assert.notEqual(seen.heading, '');
      assert.ok(seen.rows > 0, `the pinned strip, in: ${seen.text}`);
      assert.deepEqual(errors, []);
      // size-7: an unstyled page draws the logo as wide as the screen.
      assert.deepEqual(seen.logo, [28, 28]);
      // Its label's pill is a tint of the brand colour under brand text, as in modern engines:
      // without color-mix() it was the full colour, the text nearly lost on it.
      const pill = await page.evaluate(
        `getComputedStyle(document.querySelector(${rowLinks}).closest('section').querySelector('span')).backgroundColor`,
      );
      assert.match(String(pill), /^rgba\(\d+, \d+, \d+, 0\.15\)$/);
    });

    test('the download screen shows the four downloads, side by side when wide', async () => {
      const seen = await visit(
        page,
        '/#/download',
        `document.querySelectorAll('li[data-platform] a[aria-label]').length === 4`,
      );
      assert.deepEqual(seen.cards.map((card) => card.platform).sort(), ['android', 'ios', 'mac', 'windows']);
      for (const { href } of seen.cards) {
        // The server's own download addresses answer; the stores' are theirs.
        if (!href.startsWith(server.url)) assert.match(href, /^https:\/\//);
        else assert.ok((await fetch(href, { redirect: 'manual' })).status < 400, `${href} answers`);
      }
      assert.deepEqual(seen.logo, [28, 28]);
      // The primary buttons' gradient is past these engines: a plain colour stands in beneath.
      if (process.env.OLD_ENGINE_SHOTS)
        await page.screenshot({ path: `${process.env.OLD_ENGINE_SHOTS}/download-${build.version}.png` });
      const controls = (await page.evaluate(readability)) as { text: string; background: string; contrast: number }[];
      const buttons = controls.filter((control) => /^(?:Download|下载|下載)/.test(control.text));
      assert.ok(
        buttons.some((button) => !/^rgba\(0, 0, 0, 0\)$|^transparent$/.test(button.background)),
        'a coloured button',
      );
      // 3: white on the dark theme's brand blue, where the site's own gradient starts, is 3.2.
      for (const control of controls) assert.ok(control.contrast >= 3, `${control.text} readable: ${control.contrast}`);
      await page.setViewport({ width: 1280, height: 860 });
      const wide = (await page.evaluate(probe)) as Seen;
      await page.setViewport(phone);
      assert.equal(new Set(wide.cards.map((card) => card.top)).size, 1, 'the cards in one row');
    });

    test('the announcements list is whole', async () => {
      const list = await visit(page, '/#/announcements', `document.querySelector(${rowLinks})`);
      assert.ok(list.rows > 0);
      assert.deepEqual(list.logo, [28, 28]);
    });

    test('the tutorial is whole', async () => {
      await page.goto('about:blank');
      await page.goto(`${server.url}/#/downloadHelp`, { waitUntil: 'load' });
      await until(page, `document.body.innerText.indexOf('TestFlight') >= 0`, 20_000);
    });

    test('the language picker switches the language', async () => {
      await visit(page, '/');
      await page.select('header select', 'zh-TW');
      await until(page, `document.documentElement.lang === 'zh-TW'`, 10_000);
    });

    test('the script starts when the first paint comes long before the load event', async () => {
      // As on a slow link: the pictures, which engines before Chromium 77 load however far down
      // the page, hold the load event back, and the page has painted long before.
      const slow = await slowPictures(server.url);
      try {
        for (const path of ['/', '/#/downloadHelp', '/#/announcements'])
          assert.equal((await visit(page, path, 'true', slow.url)).running, true, path);
      } finally {
        await slow.close();
      }
    });

    test('no script error on any screen', () => {
      assert.deepEqual(errors, []);
    });
  });
}

/** What the site's script touches that Safari 12.1 lacks and Chromium 74 has, taken out before
 * any script runs: no old WebKit runs on this machine, so Chromium 74 stands in for it
 * (docs/site.md#the-oldest-browsers-served). Safari 12 has no ResizeObserver (13.1), and its
 * media query lists are no event targets (14): addListener alone. */
const withoutWhatSafari12Lacks = `(() => {
  delete window.ResizeObserver;
  Object.setPrototypeOf(MediaQueryList.prototype, Object.prototype);
  window.lackedAtStart = typeof ResizeObserver === 'undefined' && !('addEventListener' in matchMedia('all'));
})()`;

describe('Chromium 74 without what Safari 12.1 lacks', () => {
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  after(() => browser?.close());
  before(async () => {
    browser = await launchOldChromium(oldChromiums[0] as (typeof oldChromiums)[number]);
    page = await browser.newPage();
    watch(page, errors);
    await page.setViewport(phone);
    await page.evaluateOnNewDocument(withoutWhatSafari12Lacks);
  });

  test('every screen is whole, in the system theme too', async () => {
    // As the page's first script found them: the legacy build's own stand-ins come after.
    const lacking = `window.lackedAtStart === true`;
    for (const theme of ['light', 'system']) {
      // The site's storage, as its footer's theme switcher keeps the choice.
      await page.goto(`${server.url}/`);
      await page.evaluate(`localStorage.setItem('chat-site.theme', '${theme}')`);
      const landing = await visit(page, '/', `${lacking} && document.querySelector(${rowLinks})`);
      assert.ok(landing.rows > 0, `the pinned strip (${theme}), in: ${landing.text}`);
      const list = await visit(page, '/#/announcements', `document.querySelector(${rowLinks})`);
      assert.ok(list.rows > 0, `the list (${theme}), in: ${list.text}`);
      const first = (await page.evaluate(`document.querySelector(${rowLinks}).getAttribute('href')`)) as string;
      const detail = await visit(page, `/${first}`, `document.querySelector('main article, main h1')`);
      assert.notEqual(detail.heading, '', `an announcement (${theme}), in: ${detail.text}`);
      const download = await visit(
        page,
        '/#/download',
        `document.querySelectorAll('li[data-platform] a[aria-label]').length === 4`,
      );
      assert.equal(download.cards.length, 4);
    }
    assert.deepEqual(errors, []);
  });
});
