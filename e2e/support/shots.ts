/** Screenshots of the screen as it is, at a phone's 390 px and a desktop's 1280 px, light and
 * dark, for a person to look at (.tmp/<dir>/<name>-<width>-<theme>.png). The theme is switched
 * as the console's own switch does (web/src/features/theme/theme.ts), so nothing typed is lost.
 *
 * Taken only when `E2E_SHOTS=1`: they assert nothing, and four full-page PNGs with the wait for
 * colours to settle cost the whole suite minutes (docs/testing.md#screenshots-from-the-browser-tests). */
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';

const shotsWanted = process.env.E2E_SHOTS === '1';

export async function shootBothThemes(page: Page, dir: string, name: string): Promise<void> {
  if (!shotsWanted) return;
  const size = page.viewportSize();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((dark) => {
        const root = document.documentElement;
        root.classList.toggle('dark', dark);
        root.classList.toggle('light', !dark);
        root.style.colorScheme = dark ? 'dark' : 'light';
      }, theme === 'dark');
      // Buttons fade their colours (transition): the shot waits for them to settle.
      await page.waitForTimeout(400);
      await page.screenshot({ path: join('.tmp', dir, `${name}-${width}-${theme}.png`), fullPage: true });
    }
  }
  if (size !== null) await page.setViewportSize(size);
}

/** One screenshot of a page or a part of it to `path`, when `E2E_SHOTS=1`. */
export async function shot(target: Page | Locator, path: string, fullPage = false): Promise<void> {
  if (!shotsWanted) return;
  await target.screenshot(fullPage ? { path, fullPage } : { path });
}
