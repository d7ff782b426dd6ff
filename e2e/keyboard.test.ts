/**
 * Keyboard only: Tab walks the landing page (header, pinned strip, features, footer), the
 * download cards and the announcement list, and every element that takes focus shows a visible
 * focus indicator; the skip link moves focus to the main content.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { useSiteAndBrowser } from './support/fixture.js';
import { openPage } from './support/page-helpers.js';

const site = useSiteAndBrowser();

interface Stop {
  /** The landmark or section it is in: header, pinned, features, main, footer. */
  region: string;
  label: string;
  /** A visible outline or box shadow is drawn around it (or around its wrapper). */
  indicator: boolean;
}

/** Presses Tab `count` times (or until focus leaves the page) and describes each stop. */
async function tabThrough(page: Page, count: number): Promise<Stop[]> {
  const stops: Stop[] = [];
  for (let index = 0; index < count; index += 1) {
    await page.keyboard.press('Tab');
    const stop = (await page.evaluate(`(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      const drawn = (node) => {
        const style = getComputedStyle(node);
        return (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
      };
      const region = el.closest('header') ? 'header'
        : el.closest('section[aria-label="置顶公告"]') ? 'pinned'
        : el.closest('#howItWorks') ? 'features'
        : el.closest('footer') ? 'footer'
        : el.closest('main') ? 'main' : 'other';
      return {
        region,
        label: (el.getAttribute('aria-label') || el.textContent || el.tagName).trim().slice(0, 30),
        indicator: drawn(el) || (el.parentElement !== null && drawn(el.parentElement)),
      };
    })()`)) as Stop | null;
    if (stop === null) break;
    stops.push(stop);
  }
  return stops;
}

describe('keyboard only', () => {
  test('landing: header, pinned strip, hero, footer in order, each with a visible focus indicator', async (t) => {
    const { page, close } = await openPage(site.browser, 'desktop');
    t.after(() => close());
    await page.goto(`${site.server.url}/`);
    await page.getByRole('region', { name: '置顶公告' }).locator('ul').waitFor();
    const stops = await tabThrough(page, 40);
    const order = stops.map((stop) => stop.region).filter((region, i, all) => region !== all[i - 1]);
    assert.deepEqual(order.slice(0, 4), ['header', 'main', 'pinned', 'footer'], JSON.stringify(order));
    assert.equal(stops[0]?.label, '跳到主要内容', 'the skip link comes first');
    const invisible = stops.filter((stop) => !stop.indicator);
    assert.deepEqual(invisible, [], 'every focused element shows a focus indicator');
  });

  test('the skip link moves focus to the main content', async (t) => {
    const { page, close } = await openPage(site.browser, 'phone');
    t.after(() => close());
    await page.goto(`${site.server.url}/#/announcements`);
    await page.locator('main h1').waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), '跳到主要内容');
    assert.ok(await page.getByRole('link', { name: '跳到主要内容' }).isVisible(), 'visible once focused');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');
    await page.keyboard.press('Tab');
    assert.equal(
      await page.evaluate(() => document.activeElement?.closest('main') !== null),
      true,
      'the next Tab stays in the content',
    );
  });

  for (const route of ['/download', '/announcements']) {
    test(`${route}: every stop in the content shows a focus indicator`, async (t) => {
      const { page, close } = await openPage(site.browser, 'desktop');
      t.after(() => close());
      await page.goto(`${site.server.url}/#${route}`);
      // The announcements screen has two: the list's title and, once loaded, the announcement's.
      await page.locator('main h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      const stops = await tabThrough(page, 40);
      assert.ok(
        stops.some((stop) => stop.region === 'main'),
        'the content takes focus',
      );
      assert.deepEqual(
        stops.filter((stop) => !stop.indicator),
        [],
      );
    });
  }
});
