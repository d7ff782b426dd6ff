/**
 * What a visitor sees before the site's script runs, and how the script takes over: the
 * prerendered landing page is hydrated (its nodes kept), the other screens' prerendered first
 * frames are shown on their routes, the script is fetched only after the first paint, the API
 * calls a screen starts with are asked early and made once, and a language chosen before the
 * script runs is kept (web/src/boot-route.ts, web/src/main.tsx).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { useSiteAndBrowser } from './support/fixture.js';
import {
  assertNoProblems,
  entryScript,
  holdScript,
  openPage,
  scriptHasTakenOver,
  untilParsed,
} from './support/page-helpers.js';

const site = useSiteAndBrowser();

/** When the first contentful paint, the load event and the entry script's request happened. */
const timings = (page: Page) =>
  page.evaluate(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const entry = performance
      .getEntriesByType('resource')
      .find((resource) => /\/assets\/index-[\w-]+\.js$/.test(resource.name));
    return { paint: paint?.startTime, load: navigation.loadEventEnd, script: entry?.startTime };
  });

describe('first paint and hand-over', () => {
  for (const viewport of ['phone', 'desktop'] as const) {
    test(`${viewport}: the landing page's prerendered nodes are kept (hydrated), with no error`, async (t) => {
      const open = await openPage(site.browser, viewport, { prerendered: true });
      t.after(() => open.close());
      const { page } = open;
      await page.addInitScript(() => {
        document.addEventListener('DOMContentLoaded', () => {
          const kept = window as Window & { prerendered?: (Element | null)[] };
          kept.prerendered = ['header', 'h1', 'section'].map((selector) => document.querySelector(selector));
        });
      });
      await page.goto(`${site.server.url}/`);
      // The footer is not prerendered: it comes after hydration.
      await page.getByRole('contentinfo').waitFor();
      const same = await page.evaluate(() => {
        const kept = (window as Window & { prerendered?: (Element | null)[] }).prerendered ?? [];
        return ['header', 'h1', 'section'].map((selector, index) => kept[index] === document.querySelector(selector));
      });
      assert.deepEqual(same, [true, true, true], 'header, heading and hero are the prerendered nodes');
      assert.equal(await page.locator('#root > [data-prerender="/"]').count(), 1);
      // A hydrated page answers: the hero's second button scrolls to the features in-page.
      await page.getByRole('link', { name: '了解功能' }).click();
      await page.waitForFunction(() => window.scrollY > 100);
      assert.equal(new URL(page.url()).hash, '');
      assertNoProblems(open);
    });
  }

  test('the site’s script is fetched only after the first paint (and on the landing page after the load event)', async (t) => {
    for (const path of ['/', '/#/download', '/#/downloadHelp', '/#/announcements']) {
      const open = await openPage(site.browser, 'phone', { prerendered: true });
      t.after(() => open.close());
      await open.page.goto(`${site.server.url}${path}`);
      await open.page.getByRole('heading', { level: 1 }).first().waitFor();
      // The entry script's timing entry appears once its answer is in.
      await open.page.waitForFunction(() =>
        performance.getEntriesByType('resource').some((resource) => /\/assets\/index-[\w-]+\.js$/.test(resource.name)),
      );
      await open.page.waitForLoadState('load');
      const { paint, load, script } = await timings(open.page);
      assert.ok(paint !== undefined && script !== undefined, `${path}: painted and started`);
      assert.ok(script > paint, `${path}: script asked at ${script} ms, after the paint at ${paint} ms`);
      if (path === '/') assert.ok(script >= load, `after the load event (${load} ms)`);
      assertNoProblems(open);
    }
  });

  test('a browser without modulepreload is given the same files as module scripts, and the site runs', async (t) => {
    // As Safari before 17: the link type is unknown, so a preload link would fetch nothing.
    const open = await openPage(site.browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    await page.addInitScript(`(() => {
      const supports = DOMTokenList.prototype.supports;
      DOMTokenList.prototype.supports = function (token) {
        return token === 'modulepreload' ? false : supports.call(this, token);
      };
    })()`);
    await page.goto(`${site.server.url}/#/download`);
    await scriptHasTakenOver(page);
    const tags = (await page.evaluate(`({
      preloads: document.querySelectorAll('link[rel="modulepreload"]').length,
      modules: [...document.querySelectorAll('script[type="module"]')].map((script) => new URL(script.src).pathname),
    })`)) as { preloads: number; modules: string[] };
    assert.equal(tags.preloads, 0);
    const [entry, ...rest] = tags.modules;
    assert.match(entry ?? '', entryScript, 'the entry first');
    for (const part of [/\/rolldown-runtime-/, /\/messages\.zh-CN-/, /\/download-[\w-]+\.js$/])
      assert.ok(
        rest.some((path) => part.test(path)),
        `${part.source} asked as a module script: ${rest.join(' ')}`,
      );
    assert.match(await page.getByRole('heading', { level: 1 }).first().innerText(), /^下载/);
    assertNoProblems(open);
  });

  test('without the script, each prerendered screen shows its own first frame; other routes show none', async (t) => {
    // Each opens with its heading; the announcements screen's frame is its loading line until the
    // list arrives, which a phone then draws without the script (e2e/early-list.test.ts).
    const frames: [string, RegExp][] = [
      ['/download', /^下载/],
      ['/downloadHelp', /下载教程$/],
      ['/announcements', /^平台公告$/],
      ['/changelog', /^更新日志$/],
    ];
    for (const [route, heading] of [...frames, ['/announcements/1', null] as const]) {
      const open = await openPage(site.browser, 'phone', { prerendered: true });
      t.after(() => open.close());
      const { page } = open;
      await page.route(entryScript, (route) => route.abort());
      await page.goto(`${site.server.url}/#${route}`);
      if (heading === null) {
        // An announcement's own address has no frame: nothing prerendered shows there.
        assert.equal(await page.locator('html.prerender-off').count(), 1);
        assert.equal(await page.locator('#root > [data-prerender="/"]').isVisible(), false);
        continue;
      }
      assert.equal(await page.locator('#root > [data-prerender]').getAttribute('data-prerender'), route);
      assert.match(await page.getByRole('heading', { level: 1 }).first().innerText(), heading);
      assert.equal(await page.locator('html.prerender-off').count(), 0);
    }
  });

  test('a screen’s first API calls start before the script arrives, and each is made once', async (t) => {
    const screens = [
      { route: '/download', data: '/v1/common/getInstallPackageAddrs', shown: 'SHA-256' },
      { route: '/announcements', data: '/v1/bulletin/page', shown: '安卓客户端 5.0.1 小版本更新已推送' },
    ];
    for (const { route, data, shown } of screens) {
      const open = await openPage(site.browser, 'phone', { prerendered: true });
      t.after(() => open.close());
      const { page } = open;
      const asked: string[] = [];
      page.on('request', (request) => asked.push(new URL(request.url()).pathname));
      await page.goto(`${site.server.url}/#${route}`);
      await page.getByText(shown, { exact: true }).first().waitFor();
      // On a phone the list shows before the script is asked for (e2e/early-list.test.ts).
      await scriptHasTakenOver(page);
      for (const call of ['/v1/ping', '/v1/common/appconfig', data]) {
        assert.equal(asked.filter((path) => path === call).length, 1, `${route}: ${call} once: ${asked.join(' ')}`);
      }
      const script = asked.findIndex((path) => entryScript.test(path));
      assert.ok(script > asked.indexOf('/v1/ping'), `${route}: the ping before the script: ${asked.join(' ')}`);
      assertNoProblems(open);
    }
  });

  test('once the ping answers, the app config and the screen’s data are asked together', async (t) => {
    const open = await openPage(site.browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    await holdScript(page);
    let releaseConfig = () => {};
    const configHeld = new Promise<void>((resolve) => {
      releaseConfig = resolve;
    });
    await page.route('**/v1/common/appconfig', async (route) => {
      await configHeld;
      await route.continue();
    });
    const data = page.waitForRequest(
      (request) => new URL(request.url()).pathname === '/v1/common/getInstallPackageAddrs',
    );
    await page.goto(`${site.server.url}/#/download`, untilParsed);
    // Asked while the app config's answer is still held back.
    await data;
    releaseConfig();
  });

  test('answers asked early are not used once they are over 10 s old: the script asks again', async (t) => {
    const open = await openPage(site.browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    const data = '/v1/common/getInstallPackageAddrs';
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    const release = await holdScript(page);
    await page.goto(`${site.server.url}/#/download`, untilParsed);
    await page.waitForResponse((response) => new URL(response.url()).pathname === data);
    // Ten seconds pass, as on a network slow enough that the script arrives that late.
    await page.evaluate(() => {
      const early = (window as Window & { __earlyAnswers?: { at: number } }).__earlyAnswers;
      if (early === undefined) throw new Error('no early answers');
      early.at -= 10_001;
    });
    release();
    // The cards drawn from the early answers stay until the script shows its own.
    await page.locator('html[data-rendered]').waitFor({ state: 'attached' });
    for (const call of ['/v1/ping', '/v1/common/appconfig', data]) {
      assert.equal(asked.filter((path) => path === call).length, 2, `${call} early and again: ${asked.join(' ')}`);
    }
    assertNoProblems(open);
  });

  test('on another screen the landing page under its frame is never laid out: none of its pictures load', async (t) => {
    for (const viewport of ['phone', 'desktop'] as const) {
      for (const route of ['/download', '/announcements/1']) {
        const open = await openPage(site.browser, viewport, { prerendered: true });
        t.after(() => open.close());
        const { page } = open;
        // A slow network hands the page over in pieces, and the browser lays out and paints
        // what it has between them, before the boot script at the end of the page has run.
        const cdp = await page.context().newCDPSession(page);
        const network = (downloadThroughput: number) =>
          cdp.send('Network.emulateNetworkConditions', {
            offline: false,
            latency: downloadThroughput < 0 ? 0 : 40,
            downloadThroughput,
            uploadThroughput: -1,
          });
        await network(24 * 1024);
        const pictures: string[] = [];
        page.on('request', (request) => {
          if (request.resourceType() === 'image') pictures.push(new URL(request.url()).pathname);
        });
        await page.goto(`${site.server.url}/#${route}`, { waitUntil: 'domcontentloaded' });
        await network(-1);
        await page.locator('html[data-rendered]').waitFor();
        await page.waitForLoadState('networkidle');
        const landing = pictures.filter((path) => /\/assets\/feature-/.test(path));
        assert.deepEqual(landing, [], `${viewport} ${route}: ${pictures.join(' ')}`);
      }
    }
  });

  test('the landing page asks the API nothing before its script runs', async (t) => {
    const open = await openPage(site.browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const asked: string[] = [];
    open.page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await open.page.goto(`${site.server.url}/`);
    await open.page.getByRole('region', { name: '置顶公告' }).waitFor();
    const script = asked.findIndex((path) => entryScript.test(path));
    const firstCall = asked.findIndex((path) => path.startsWith('/v1/'));
    assert.ok(script >= 0 && firstCall > script, asked.join(' '));
  });

  test('a link within the page followed before the script runs scrolls there and leaves the route alone', async (t) => {
    const open = await openPage(site.browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    const release = await holdScript(page);
    await page.goto(`${site.server.url}/`);
    await page.getByRole('link', { name: '了解功能' }).click();
    await page.waitForFunction(() => window.scrollY > 100);
    assert.equal(new URL(page.url()).hash, '');
    release();
    await page.getByRole('contentinfo').waitFor();
    assert.equal(await page.getByRole('heading', { level: 1, name: '星聊' }).count(), 1, 'still the landing page');
    assertNoProblems(open);
  });

  // The second address names a language itself: the visitor's later choice still wins, and the
  // address loses its `lang`, as after a choice in the script's own switcher.
  for (const address of ['/', '/?lang=zh-CN#/download?lang=zh-CN']) {
    test(`a language chosen before the script runs is the one the script renders (${address})`, async (t) => {
      const open = await openPage(site.browser, 'phone', { prerendered: true });
      t.after(() => open.close());
      const { page } = open;
      const release = await holdScript(page);
      await page.goto(`${site.server.url}${address}`, untilParsed);
      await page.getByRole('combobox', { name: '语言' }).selectOption('en');
      release();
      await page.locator('html[lang="en"][data-rendered]').waitFor();
      await page
        .getByText(address === '/' ? 'Bringing the world closer' : 'Download', { exact: false })
        .first()
        .waitFor();
      assert.equal(await page.evaluate(() => localStorage.getItem('chat-site.language')), 'en');
      assert.doesNotMatch(page.url(), /lang=/);
      assertNoProblems(open);
    });
  }
});
