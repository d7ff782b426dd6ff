/**
 * What a screen's largest paint waits for on its first load (docs/performance.md#the-largest-paint-of-each-screen):
 * a screen whose frame is whole without the API (the tutorial, the changelog) asks for nothing
 * before its pictures are in and it has painted, as the landing page does, so its largest paint
 * shares the network with nobody (web/src/boot-route.ts); the download screen's largest paint is
 * its first, from the page itself, not a card's facts drawn from the API answers later.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { useSiteAndBrowser } from './support/fixture.js';
import {
  assertNoProblems,
  entryScript,
  nextFrames,
  openPage,
  scriptHasTakenOver,
  untilParsed,
} from './support/page-helpers.js';

const site = useSiteAndBrowser();

interface Seen {
  largest?: { at: number; text: string }[];
  shifts?: number;
}

/** Records each largest-paint candidate, and the layout shifts, from the page's start. */
async function watchPaints(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen = window as Window & Seen;
    seen.largest = [];
    seen.shifts = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { element: Element | null })[])
        seen.largest?.push({ at: entry.startTime, text: entry.element?.textContent ?? '' });
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[])
        seen.shifts = (seen.shifts ?? 0) + entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** What watchPaints saw, after one more frame (a paint that reports no new largest entry leaves
 * the one before standing), with the first paint and the start of the API's ping. */
async function paintsSeen(page: Page) {
  // The frame after the next one begins: the next one has been painted.
  await nextFrames(page);
  return page.evaluate(() => {
    const seen = window as Window & Seen;
    return {
      largest: seen.largest ?? [],
      shifts: seen.shifts ?? 0,
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      ping: performance.getEntriesByType('resource').find((entry) => entry.name.endsWith('/v1/ping'))?.startTime,
    };
  });
}

describe('the largest paint of a first load', () => {
  test('the tutorial and the changelog ask the API and fetch the script only after the load event and the first paint', async (t) => {
    for (const route of ['/downloadHelp', '/changelog']) {
      const open = await openPage(site.browser, 'phone', { prerendered: true });
      t.after(() => open.close());
      const { page } = open;
      await page.goto(`${site.server.url}/#${route}`);
      await scriptHasTakenOver(page);
      const timings = await page.evaluate((entry) => {
        const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const resources = performance.getEntriesByType('resource');
        return {
          load: navigation.loadEventEnd,
          paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
          ping: resources.find((resource) => resource.name.endsWith('/v1/ping'))?.startTime,
          script: resources.find((resource) => new RegExp(entry).test(resource.name))?.startTime,
        };
      }, entryScript.source);
      const { load, paint, ping, script } = timings;
      assert.ok(load > 0 && paint !== undefined && ping !== undefined && script !== undefined, JSON.stringify(timings));
      for (const [name, at] of [
        ['ping', ping],
        ['script', script],
      ] as const) {
        assert.ok(
          at >= load && at > paint,
          `${route}: ${name} at ${at} ms, before the load event (${load}) or the paint (${paint})`,
        );
      }
      assertNoProblems(open);
    }
  });

  test('the logo is in the page: no screen asks for it, so the tutorial’s pictures are its first request', async (t) => {
    for (const route of ['/', '/downloadHelp']) {
      const open = await openPage(site.browser, 'phone', { prerendered: true });
      t.after(() => open.close());
      const { page } = open;
      await page.goto(`${site.server.url}/#${route}`);
      await scriptHasTakenOver(page);
      const asked = await page.evaluate(() =>
        performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname),
      );
      assert.deepEqual(
        asked.filter((path) => path.includes('logo')),
        [],
        `${route}: ${asked.join(' ')}`,
      );
      if (route === '/downloadHelp') assert.match(asked[0] ?? '', /\/tutorial-steps-/, asked.join(' '));
      // Still drawn, at its size, wherever it stands.
      const logo = page.getByRole('img', { name: /标志/ }).first();
      assert.ok(((await logo.boundingBox())?.width ?? 0) >= 28, `${route}: the logo is drawn`);
      assertNoProblems(open);
    }
  });

  test('the tutorial’s seven pictures come in one request, each showing its own step in one picture’s shape', async (t) => {
    for (const viewport of ['phone', 'desktop'] as const) {
      const open = await openPage(site.browser, viewport, { prerendered: true });
      t.after(() => open.close());
      const { page } = open;
      await page.goto(`${site.server.url}/#/downloadHelp`);
      await scriptHasTakenOver(page);
      const pictures = page.locator('ol li img');
      await pictures.first().waitFor();
      assert.equal(await pictures.count(), 7);
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLImageElement>('ol li img')].every(
          (img) => img.complete && img.naturalWidth > 0,
        ),
      );
      const asked = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((entry) => new URL(entry.name).pathname)
          .filter((path) => path.endsWith('.svg')),
      );
      assert.equal(asked.length, 1, `${viewport}: ${asked.join(' ')}`);
      const shots: string[] = [];
      for (let index = 0; index < 7; index++) {
        const picture = pictures.nth(index);
        const box = await picture.boundingBox();
        assert.ok(box !== null && box.width >= 100, `${viewport}: picture ${index + 1} is drawn`);
        // One picture's 9 : 16 (its border box), not the strip's 9 : 112.
        assert.ok(
          Math.abs(box.height - (box.width * 16) / 9) <= 1.5,
          `${viewport}: picture ${index + 1} is ${box.width} × ${box.height}`,
        );
        shots.push((await picture.screenshot()).toString('base64'));
      }
      assert.equal(new Set(shots).size, 7, `${viewport}: every picture shows a step of its own`);
      assertNoProblems(open);
    }
  });

  test('the favicon is in the page too: its link is the logo as a data URL, which the browser draws', async (t) => {
    const open = await openPage(site.browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    await page.goto(`${site.server.url}/#/announcements`);
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    assert.match(href ?? '', /^data:image\/svg\+xml,/, 'no /favicon.svg to ask for on the page’s connection');
    const size = await page.evaluate(async (source) => {
      const icon = new Image();
      icon.src = source;
      await icon.decode();
      return [icon.naturalWidth, icon.naturalHeight];
    }, href ?? '');
    assert.ok((size[0] ?? 0) > 0 && (size[1] ?? 0) > 0, `the icon draws: ${size.join('×')}`);
    assertNoProblems(open);
  });

  test('on a phone the download screen’s largest paint is its first one, not a card’s SHA-256', async (t) => {
    const open = await openPage(site.browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    await watchPaints(page);
    await page.goto(`${site.server.url}/#/download`);
    await page.getByText('SHA-256', { exact: true }).first().waitFor();
    await scriptHasTakenOver(page);
    const { largest, paint, ping } = await paintsSeen(page);
    assert.equal(largest.at(-1)?.at, paint, `the largest paint at the first paint: ${JSON.stringify(largest)}`);
    // Nor is the API asked before that paint: its answers are no request the paint waited for.
    assert.ok(ping !== undefined && paint !== undefined && ping > paint, `ping at ${ping} ms, paint at ${paint} ms`);
    assertNoProblems(open);
  });

  test('on a phone the announcements screen’s largest paint is a title of its first paint, which never moves', async (t) => {
    const open = await openPage(site.browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    await watchPaints(page);
    const scripts: string[] = [];
    page.on('request', (request) => scripts.push(request.url()));
    await page.goto(`${site.server.url}/#/announcements`);
    await scriptHasTakenOver(page);
    const { largest, paint, ping, shifts } = await paintsSeen(page);
    const last = largest.at(-1);
    assert.equal(last?.at, paint, `the largest paint at the first paint: ${JSON.stringify(largest)}`);
    // A title the server wrote into the page (server/src/page/early-rows.ts), the one the
    // script's own list shows there.
    const titles = await page.locator('nav li [data-field="title"]').allInnerTexts();
    assert.ok(last !== undefined && titles.includes(last.text), `${last?.text} among ${titles.join(' | ')}`);
    assert.ok(ping !== undefined && paint !== undefined && ping > paint, `ping at ${ping} ms, paint at ${paint} ms`);
    assert.deepEqual(
      scripts.filter((url) => /\/early-list-/.test(url)),
      [],
      'nothing left to draw before the script',
    );
    assert.equal(shifts, 0, 'no layout shift from the first paint to the script’s list');
    assertNoProblems(open);
  });

  test('on a 320-pixel phone a card keeps its height when its SHA-256 arrives', async (t) => {
    const open = await openPage(site.browser, 'phone', { prerendered: true });
    t.after(() => open.close());
    const { page } = open;
    await page.setViewportSize({ width: 320, height: 700 });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/v1/common/getInstallPackageAddrs', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${site.server.url}/#/download`, untilParsed);
    // The facts' invisible placeholder holds the card's height until they arrive.
    const reserved = await page.locator('li[data-platform] [data-loading] code').first().boundingBox();
    release();
    await scriptHasTakenOver(page);
    const drawn = await page.locator('li[data-platform] [data-field="sha256"] code').first().boundingBox();
    assert.ok(reserved !== null && drawn !== null);
    assert.equal(drawn.height, reserved.height, 'the hash takes the lines held for it');
    assertNoProblems(open);
  });
});
