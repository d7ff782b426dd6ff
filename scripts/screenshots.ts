/**
 * `npm run screenshots`: every screen at phone and desktop width, in both themes, as PNGs in
 * .tmp/screenshots/, from the real server with demo content. For looking, not for asserting.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { contextOptions, launchBrowser, viewports } from '../e2e/support/browser.js';
import { repoRoot, startServer } from '../e2e/support/server.js';

const routes = {
  landing: '/',
  download: '/#/download',
  'download-help': '/#/downloadHelp',
  announcements: '/#/announcements',
  'announcement-2': '/#/announcements/2',
  'announcement-single': '/#/announcement/11',
  'not-found': '/#/nope',
};
const only = process.argv[2];
const outDir = join(repoRoot, '.tmp/screenshots');
mkdirSync(outDir, { recursive: true });

const server = await startServer();
const browser = await launchBrowser();
try {
  for (const viewport of Object.keys(viewports) as (keyof typeof viewports)[]) {
    for (const theme of ['dark', 'light']) {
      const context = await browser.newContext(contextOptions(viewport));
      await context.addInitScript((value) => localStorage.setItem('chat-site.theme', value), theme);
      const page = await context.newPage();
      page.on('console', (message) => message.type() === 'error' && console.error(`[${viewport}] ${message.text()}`));
      for (const [name, path] of Object.entries(routes)) {
        if (only !== undefined && !name.includes(only)) continue;
        await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
        // Scroll through once so lazy images load before the full-page shot.
        await page.evaluate(async () => {
          for (let y = 0; y < document.body.scrollHeight; y += 600) {
            window.scrollTo(0, y);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          window.scrollTo(0, 0);
        });
        await page.waitForTimeout(400);
        const file = join(outDir, `${name}-${viewport}-${theme}.png`);
        await page.screenshot({ path: file, fullPage: true });
        // Phones also get the first screen alone, at full size, for a closer look.
        if (viewport === 'phone') await page.screenshot({ path: file.replace('.png', '-fold.png') });
        console.log(file);
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
