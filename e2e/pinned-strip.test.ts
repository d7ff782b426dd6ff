/** The pinned strip's autoplay: it pauses while hovered or focused, and jumps without scrolling
 * under prefers-reduced-motion. Demo content has two pinned announcements. */
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import { useSiteAndBrowser } from './support/fixture.js';
import { openPage, trackMoved } from './support/page-helpers.js';

const site = useSiteAndBrowser();

const strip = (page: Page) => page.getByRole('region', { name: '置顶公告' });
const offset = (page: Page) =>
  strip(page)
    .locator('ul')
    .evaluate((el) => getComputedStyle(el).transform);

/** Starts recording every transform the track takes, sampled on each animation frame; answers
 * the function that reads them. (A string, as the test runner's transform would add helpers the
 * page does not have to nested functions.) */
async function recordTransforms(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(`(() => {
    const track = document.querySelector('section[aria-label="置顶公告"] ul');
    const seen = (window.__e2eTransforms = []);
    const sample = () => {
      const value = getComputedStyle(track).transform;
      if (seen.at(-1) !== value) seen.push(value);
      requestAnimationFrame(sample);
    };
    sample();
  })()`);
  return () => page.evaluate('window.__e2eTransforms') as Promise<string[]>;
}

/** Every transform the track takes from now until it has moved once and come to rest. */
async function firstMove(page: Page): Promise<string[]> {
  const transforms = await recordTransforms(page);
  const [start] = await transforms();
  await trackMoved(strip(page).locator('ul'), start ?? '');
  return transforms();
}

/** The track's offset once it has stopped moving: the same over ten animation frames, the
 * frames Embla moves it on. */
async function settledOffset(page: Page): Promise<string> {
  // A string, as recordTransforms is: the runner's transform would add helpers to nested functions.
  await page.evaluate(`new Promise((settled) => {
    const track = document.querySelector('section[aria-label="置顶公告"] ul');
    let last = getComputedStyle(track).transform;
    let still = 0;
    const frame = () => {
      const now = getComputedStyle(track).transform;
      still = now === last ? still + 1 : 0;
      last = now;
      if (still >= 10) settled();
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  })`);
  return offset(page);
}

/**
 * Proving that a strip stays put takes time: it must stay through the moment the autoplay would
 * have moved it. The moment is shown by a strip nobody touches, on a page of its own: once that
 * one has moved twice, a whole autoplay step (3 s) has gone by since the first move, which came
 * after the test's hover or focus. Answers that page, open; `passed` waits for the two moves.
 */
async function controlStrip(t: TestContext): Promise<{ passed(): Promise<void> }> {
  const control = await openPage(site.browser, 'desktop');
  t.after(() => control.close());
  await control.page.goto(`${site.server.url}/`);
  const track = strip(control.page).locator('ul');
  await track.waitFor();
  return {
    passed: async () => {
      const first = await trackMoved(track, await offset(control.page));
      await trackMoved(track, first);
    },
  };
}

describe('pinned strip autoplay', () => {
  test('desktop: stays put while the pointer is over it, moves on once it leaves', async (t) => {
    const { page, close } = await openPage(site.browser, 'desktop');
    t.after(() => close());
    await page.goto(`${site.server.url}/`);
    await strip(page).locator('ul').waitFor();
    const control = await controlStrip(t);
    await strip(page).getByText('置顶公告').hover();
    // A step under way when the pointer arrives finishes first: pausing stops the next one.
    const start = await settledOffset(page);
    await control.passed();
    assert.equal(await offset(page), start, 'paused while hovered');
    await page.mouse.move(5, 700);
    assert.notEqual(await trackMoved(strip(page).locator('ul'), start), start, 'moving again after the pointer left');
  });

  test('desktop: stays put while an item has keyboard focus, moves on once focus leaves', async (t) => {
    const { page, close } = await openPage(site.browser, 'desktop');
    t.after(() => close());
    await page.goto(`${site.server.url}/`);
    await strip(page).locator('ul').waitFor();
    const control = await controlStrip(t);
    // Embla treats focus as the visitor's only when it comes from the Tab key, and only when the
    // focus lands within 10 ms of the key press. A busy phone misses that window: the page is
    // kept busy for 30 ms after the key, and the strip must pause all the same.
    await page.evaluate(`window.addEventListener('keydown', (event) => {
      if (event.key !== 'Tab') return;
      const until = performance.now() + 30;
      while (performance.now() < until);
    })`);
    await page.getByRole('link', { name: '了解功能' }).focus();
    await page.keyboard.press('Tab');
    assert.equal(
      await strip(page)
        .getByRole('link')
        .first()
        .evaluate((el) => el === document.activeElement),
      true,
    );
    // As with hover, a step under way when focus arrives finishes first.
    const start = await settledOffset(page);
    await control.passed();
    assert.equal(await offset(page), start, 'paused while focused');
    await page.locator('h1').click();
    await page.mouse.move(5, 700);
    assert.notEqual(await trackMoved(strip(page).locator('ul'), start), start, 'moving again after focus left');
  });

  test('desktop: appearing under a pointer already resting there, it starts paused, and moves on once it leaves', async (t) => {
    const { page, close } = await openPage(site.browser, 'desktop');
    t.after(() => close());
    // The pinned announcements are held back until the pointer rests where the strip will be.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/v1/bulletin/page?**', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${site.server.url}/`);
    const place = await page.locator('[data-pinned-placeholder]').boundingBox();
    assert.ok(place !== null, 'the strip’s place is kept while it waits');
    await page.mouse.move(place.x + place.width / 2, place.y + place.height / 2);
    const control = await controlStrip(t);
    release();
    await strip(page).locator('ul').waitFor();
    const start = await offset(page);
    await control.passed();
    assert.equal(await offset(page), start, 'paused under the pointer');
    await page.mouse.move(5, 700);
    assert.notEqual(await trackMoved(strip(page).locator('ul'), start), start, 'moving once the pointer left');
  });

  test('phone, reduced motion: still advances every 3 s, in one jump with no frames in between', async (t) => {
    const { page, close } = await openPage(site.browser, 'phone');
    t.after(() => close());
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(`${site.server.url}/`);
    await strip(page).locator('ul').waitFor();
    const seen = await firstMove(page);
    assert.equal(seen.length, 2, `one jump from the first to the second item, got ${seen.join(' → ')}`);
  });

  test('phone, no preference: the move is animated over several frames', async (t) => {
    const { page, close } = await openPage(site.browser, 'phone');
    t.after(() => close());
    await page.goto(`${site.server.url}/`);
    await strip(page).locator('ul').waitFor();
    const seen = await firstMove(page);
    assert.ok(seen.length > 2, `expected frames between the items, got ${seen.join(' → ')}`);
  });
});
