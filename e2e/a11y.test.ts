/**
 * axe-core on every route, in both themes, at 375 px and 1280 px: no violations. axe's source is
 * run with page.evaluate, as the page's CSP allows no inline <script>.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { useSiteAndBrowser } from './support/fixture.js';
import { openPage } from './support/page-helpers.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Each route, and what shows once its content is there. */
const routes: Record<string, string> = {
  '/': '#howItWorks h3',
  '/download': 'main h1',
  '/downloadHelp': 'main h1',
  '/announcements': 'main h1',
  '/announcements/2': 'main h1',
  '/announcement/2': 'main article',
  '/no-such-page': 'main h1',
};

const site = useSiteAndBrowser();

interface Violation {
  id: string;
  help: string;
  nodes: string[];
}

for (const viewport of ['phone', 'desktop'] as const) {
  for (const theme of ['dark', 'light'] as const) {
    describe(`${viewport}, ${theme} theme`, () => {
      for (const [route, ready] of Object.entries(routes)) {
        test(`${route}: no axe violations`, async () => {
          const { page, close } = await openPage(site.browser, viewport, {
            localStorage: { 'chat-site.theme': theme },
          });
          try {
            await page.goto(`${site.server.url}/#${route}`);
            await page.locator(ready).first().waitFor();
            await page.waitForLoadState('networkidle');
            await page.evaluate(axeSource);
            const violations = (await page.evaluate(`axe
              .run(document, { resultTypes: ['violations'] })
              .then((result) => result.violations.map((v) => ({
                id: v.id,
                help: v.help,
                nodes: v.nodes.map((node) => node.target.join(' ') + ' — ' + node.failureSummary),
              })))`)) as Violation[];
            assert.deepEqual(
              violations.map((v) => `${v.id}: ${v.help}\n  ${v.nodes.join('\n  ')}`),
              [],
              `${route} (${viewport}, ${theme})`,
            );
          } finally {
            await close();
          }
        });
      }
    });
  }
}
