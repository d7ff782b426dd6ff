/** The pinned strip's autoplay: it pauses while hovered or focused, and jumps without scrolling
 * under prefers-reduced-motion. Demo content has two pinned announcements. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { useSiteAndBrowser } from './support/fixture.js';
import { openPage } from './support/page-helpers.js';

const site = useSiteAndBrowser();

const strip = (page: Page) => page.getByRole('region', { name: '置顶公告' });
const offset = (page: Page) =>
  strip(page)
    .locator('ul')
    .evaluate((el) => getComputedStyle(el).transform);

/** Every transform the track takes during `ms`, sampled on each animation frame. (A string, as
 * the test runner's transform would add helpers the page does not have to nested functions.) */
const transformsDuring = (page: Page, ms: number) =>
  page.evaluate(`new Promise((done) => {
    const track = document.querySelector('section[aria-label="置顶公告"] ul');
    const seen = [];
    const end = performance.now() + ${ms};
    const sample = () => {
      const value = getComputedStyle(track).transform;
      if (seen.at(-1) !== value) seen.push(value);
      if (performance.now() < end) requestAnimationFrame(sample);
      else done(seen);
    };
    sample();
  })`) as Promise<string[]>;

describe('pinned strip autoplay', () => {
  test('desktop: stays put while the pointer is over it, moves on once it leaves', async (t) => {
    const { page, close } = await openPage(site.browser, 'desktop');
    t.after(() => close());
    await page.goto(`${site.server.url}/`);
    await strip(page).locator('ul').waitFor();
    await strip(page).getByText('置顶公告').hover();
    const start = await offset(page);
    await page.waitForTimeout(4000);
    assert.equal(await offset(page), start, 'paused while hovered');
    await page.mouse.move(5, 700);
    await page.waitForTimeout(3600);
    assert.notEqual(await offset(page), start, 'moving again after the pointer left');
  });

  test('desktop: stays put while an item has keyboard focus, moves on once focus leaves', async (t) => {
    const { page, close } = await openPage(site.browser, 'desktop');
    t.after(() => close());
    await page.goto(`${site.server.url}/`);
    await strip(page).locator('ul').waitFor();
    // Embla treats focus as the visitor's only when it comes from the Tab key.
    await page.getByRole('link', { name: '了解功能' }).focus();
    await page.keyboard.press('Tab');
    assert.equal(
      await strip(page)
        .getByRole('link')
        .first()
        .evaluate((el) => el === document.activeElement),
      true,
    );
    const start = await offset(page);
    await page.waitForTimeout(4000);
    assert.equal(await offset(page), start, 'paused while focused');
    await page.locator('h1').click();
    await page.mouse.move(5, 700);
    await page.waitForTimeout(3600);
    assert.notEqual(await offset(page), start, 'moving again after focus left');
  });

  test('phone, reduced motion: still advances every 3 s, in one jump with no frames in between', async (t) => {
    const { page, close } = await openPage(site.browser, 'phone');
    t.after(() => close());
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(`${site.server.url}/`);
    await strip(page).locator('ul').waitFor();
    const seen = await transformsDuring(page, 3800);
    assert.equal(seen.length, 2, `one jump from the first to the second item, got ${seen.join(' → ')}`);
  });

  test('phone, no preference: the move is animated over several frames', async (t) => {
    const { page, close } = await openPage(site.browser, 'phone');
    t.after(() => close());
    await page.goto(`${site.server.url}/`);
    await strip(page).locator('ul').waitFor();
    const seen = await transformsDuring(page, 3800);
    assert.ok(seen.length > 2, `expected frames between the items, got ${seen.join(' → ')}`);
  });
});
