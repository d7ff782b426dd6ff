/**
 * The API reference page (docs/admin-api.md#api-documentation) in a real browser, under its own
 * CSP: Swagger UI draws every operation of /v1/openapi.json with no request leaving the server
 * and nothing the CSP refuses.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { contextOptions, launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';

let browser: Browser;
let server: RunningServer;

before(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('/api-docs shows the public and admin operations, and its CSP refuses nothing', async (t) => {
  const context = await browser.newContext(contextOptions('desktop'));
  t.after(() => context.close());
  const page = await context.newPage();
  const problems: string[] = [];
  const elsewhere: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('request', (request) => {
    if (!request.url().startsWith(server.url) && !request.url().startsWith('data:')) elsewhere.push(request.url());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`Content Security Policy: ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  await page.goto(`${server.url}/api-docs`);
  await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
  const paths = await page.locator('.opblock-summary-path').allTextContents();
  const shown = paths.map((path) => path.replace(/\u200b/g, ''));
  for (const path of ['/v1/bulletin/page', '/v1/admin/bulletins', '/readyz', '/dl/{os}']) {
    assert.ok(shown.includes(path), `${path} among ${shown.join(' ')}`);
  }
  // The admin operations carry a lock: the page knows their security schemes.
  assert.ok((await page.locator('.opblock .authorization__btn').count()) > 0);
  // Expanding an operation draws its parameters and response schemas too.
  await page.locator('.opblock-summary-path', { hasText: '/v1/bulletin/page' }).first().click();
  await page.locator('.parameters-container').first().waitFor();
  assert.deepEqual(problems, []);
  assert.deepEqual(elsewhere, []);
});
