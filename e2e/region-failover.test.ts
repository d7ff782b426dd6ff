/**
 * Region failover in a real browser against the real server, through the page's own
 * Content-Security-Policy (docs/site.md#content-security-policy): every API address the
 * site config names refuses connections, the configured region document names an address that is
 * in no config (not the site config, not the server's stored region document), and that
 * address's app config turns on a CDN whose origin is in no config either. The announcements
 * appear, their pictures load from that CDN, and the browser reports no CSP violation; also once
 * the service worker controls the page.
 *
 * The new addresses are made-up names under .test served over HTTPS on 127.0.0.1: this file's
 * Chromium maps the names to 127.0.0.1 and trusts the one certificate made at start
 * (support/tls.ts). Production addresses are HTTPS, and a CSP `https:` source rightly never
 * matches the http:// loopback stubs the other tests use.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './support/browser.js';
import { openPage, recordCspViolations, type CspViolation, type OpenPage } from './support/page-helpers.js';
import { startServer, type RunningServer } from './support/server.js';
import {
  deadAddresses,
  fakeApiRoutes,
  fakeBulletins,
  fakeImageKey,
  regionDocumentPath,
  startHttpStub,
  writeSiteConfig,
  type HttpStub,
} from './support/stubs.js';
import { testCertificate } from './support/tls.js';

const hosts = { api: 'api-failover.test', cdn: 'cdn-failover.test' } as const;
const lastApiAddrKey = 'chat-site.last-api-addr';
const picture = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>';

let browser: Browser;
let server: RunningServer;
let dead: Record<'api1' | 'api2', string>;
/** The configured region document (plain HTTP on 127.0.0.1, as configured addresses may be). */
let region: HttpStub;
/** The address only the region document names, serving the fake API over HTTPS. */
let api: HttpStub;
/** The CDN only `api`'s app config names, over HTTPS. */
let cdn: HttpStub;
const cleanups: (() => Promise<void> | void)[] = [];

before(async () => {
  const certificate = testCertificate(Object.values(hosts));
  cdn = await startHttpStub(
    { [`/bucket/${fakeImageKey}`]: { status: 200, contentType: 'image/svg+xml', body: picture } },
    { ...certificate, host: hosts.cdn },
  );
  cleanups.push(() => cdn.close());
  api = await startHttpStub(
    {
      ...fakeApiRoutes(),
      '/v1/common/appconfig': { status: 200, body: { use_cdn: 1, common_cdn_bucket_url: `${cdn.url}/bucket` } },
    },
    { ...certificate, host: hosts.api },
  );
  cleanups.push(() => api.close());
  region = await startHttpStub({
    [regionDocumentPath]: { status: 200, body: { api_addrs: [{ addr: api.url }], allocator_addrs: [] } },
  });
  cleanups.push(() => region.close());
  dead = await deadAddresses(['api1', 'api2']);
  const config = writeSiteConfig({
    apiAddrs: [dead.api1, dead.api2],
    regionDocumentUrls: [`${region.url}${regionDocumentPath}`],
  });
  cleanups.push(() => config.remove());
  [server, browser] = await Promise.all([
    startServer({ SITE_CONFIG: config.path }),
    launchBrowser(certificate.chromiumFlags),
  ]);
  cleanups.push(() => server.stop());
});

after(async () => {
  await browser?.close();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

interface Visit extends OpenPage {
  violations: CspViolation[];
  /** Console errors as "text (address of the resource or script)", and uncaught exceptions. */
  errors: string[];
}

async function visit(viewport: 'phone' | 'desktop', serviceWorkers?: 'allow'): Promise<Visit> {
  const open = await openPage(browser, viewport, { serviceWorkers });
  const errors: string[] = [];
  open.page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  open.page.on('pageerror', (error) => errors.push(error.message));
  return { ...open, errors, violations: await recordCspViolations(open.context) };
}

/** The list shows the fake API's announcements: the page reached the new address. Fails at once,
 * with the violations seen, when the page shows its error instead. */
async function assertFakeList(v: Visit): Promise<void> {
  const links = v.page.getByRole('navigation', { name: '平台公告', exact: true }).getByRole('link');
  await links.first().or(v.page.getByRole('alert')).first().waitFor({ state: 'visible', timeout: 15_000 });
  const alerts = await v.page.getByRole('alert').allInnerTexts();
  assert.deepEqual(alerts, [], `the page shows an error; CSP violations: ${JSON.stringify(v.violations)}`);
  const shown = await links.allInnerTexts();
  for (const { title } of fakeBulletins) {
    assert.ok(
      shown.some((text) => text.includes(title)),
      `"${title}" is listed; the list shows ${JSON.stringify(shown)}`,
    );
  }
}

/** No CSP violation, as events and in the console; the only console errors allowed are the
 * refused connections to the dead configured addresses. */
function assertNoViolations(v: Visit): void {
  assert.deepEqual(v.violations, [], 'no securitypolicyviolation event');
  const cspMessages = v.errors.filter((text) => /Content Security Policy/i.test(text));
  assert.deepEqual(cspMessages, [], 'no CSP violation in the console');
  const deadAddrs = Object.values(dead);
  const unexpected = v.errors.filter(
    (text) => !(/ERR_CONNECTION_REFUSED/.test(text) && deadAddrs.some((addr) => text.includes(addr))),
  );
  assert.deepEqual(unexpected, [], 'no console errors but the refused configured addresses');
}

const fetched = (stub: HttpStub, path: string) =>
  stub.requests.some((request) => request.method === 'GET' && request.path === path);

describe('every configured API address refuses; the region document names an address in no config', () => {
  test('control: the new addresses are in no config the page is served with', async () => {
    const answer = await fetch(`${server.url}/`);
    const csp = answer.headers.get('content-security-policy') ?? '';
    const page = await answer.text();
    for (const host of Object.values(hosts)) {
      assert.ok(!csp.includes(host), `the CSP does not name ${host}`);
      assert.ok(!page.includes(host), `the page (its site config) does not name ${host}`);
    }
    const stored = await (await fetch(`${server.url}/v1/region`)).text();
    assert.ok(!stored.includes(hosts.api), `the server's region document ${stored} does not name ${hosts.api}`);
    const appConfig = (await (await fetch(`${server.url}/v1/common/appconfig`)).json()) as { use_cdn: number };
    assert.equal(appConfig.use_cdn, 0, "the server's own app config has no CDN");
  });

  for (const viewport of ['phone', 'desktop'] as const) {
    test(`${viewport}: the announcements come from the new address, with no CSP violation`, async (t) => {
      api.reset();
      region.reset();
      const v = await visit(viewport);
      t.after(() => v.close());
      await v.page.goto(`${server.url}/#/announcements`);
      await assertFakeList(v);
      assert.ok(fetched(region, regionDocumentPath), 'the region document was fetched');
      assert.ok(fetched(api, '/v1/ping'), 'the new address was pinged');
      assert.ok(fetched(api, '/v1/bulletin/page'), 'the list came from the new address');
      assert.equal(await v.page.evaluate((key) => localStorage.getItem(key), lastApiAddrKey), api.url);
      assertNoViolations(v);
    });
  }

  test("desktop: an announcement's picture loads from the CDN only the new address's app config names", async (t) => {
    cdn.reset();
    const v = await visit('desktop');
    t.after(() => v.close());
    await v.page.goto(`${server.url}/#/announcement/3`);
    const heading = v.page.getByRole('heading', { level: 1, name: fakeBulletins[2].title });
    await heading.or(v.page.getByRole('alert')).first().waitFor({ timeout: 15_000 });
    const alerts = await v.page.getByRole('alert').allInnerTexts();
    assert.deepEqual(alerts, [], `the page shows an error; CSP violations: ${JSON.stringify(v.violations)}`);
    const image = v.page.locator('article img').first();
    assert.equal(await image.getAttribute('src'), `${cdn.url}/bucket/${fakeImageKey}`);
    await image.scrollIntoViewIfNeeded();
    const naturalWidth = await image.evaluate(
      (element: HTMLImageElement) =>
        new Promise<number>((done) => {
          if (element.complete) done(element.naturalWidth);
          element.addEventListener('load', () => done(element.naturalWidth), { once: true });
          element.addEventListener('error', () => done(element.naturalWidth), { once: true });
        }),
    );
    assert.ok(
      naturalWidth > 0,
      `the picture loaded (naturalWidth ${naturalWidth}); CSP violations: ${JSON.stringify(v.violations)}`,
    );
    assert.ok(fetched(cdn, `/bucket/${fakeImageKey}`), 'the CDN served it');
    assert.ok(!fetched(api, `/v1/file/preview/${fakeImageKey}`), 'the API did not');
    assertNoViolations(v);
  });

  test('desktop: once the service worker controls the page, a reload still reaches the new address', async (t) => {
    const v = await visit('desktop', 'allow');
    t.after(() => v.close());
    await v.page.goto(`${server.url}/#/announcements`);
    await assertFakeList(v);
    // The worker registers a few seconds after the load event (web/src/lib/service-worker.ts).
    await v.page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
      timeout: 30_000,
    });
    api.reset();
    await v.page.reload();
    assert.ok(await v.page.evaluate(() => navigator.serviceWorker.controller !== null), 'the worker controls it');
    await assertFakeList(v);
    assert.ok(fetched(api, '/v1/bulletin/page'), 'the list came from the new address again');
    assertNoViolations(v);
  });
});
