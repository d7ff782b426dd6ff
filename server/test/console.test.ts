/**
 * The operator console's files at /admin (server/src/console/routes.ts): one page for every
 * console address, with its own strict policy and a style nonce new on every load; the preview
 * frame, which only the console may frame and which carries the site's settings; the hashed
 * assets, cached for good. Needs the built console (npm run build).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let root: string;
before(async () => {
  // A console build of its own: the test does not depend on (or rebuild) console/dist.
  root = mkdtempSync(join(tmpdir(), 'chat-site-console-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><html><head><title>console</title></head><body></body></html>',
  );
  writeFileSync(
    join(root, 'preview.html'),
    '<!doctype html><html><head><title>preview</title></head><body></body></html>',
  );
  writeFileSync(join(root, 'assets', 'console-abc123.js'), 'export {};');
  t = await startTestApp({ env: { CONSOLE_ROOT: root } });
});
after(async () => {
  await t.close();
  rmSync(root, { recursive: true, force: true });
});

const nonceOf = (html: string) => /<meta name="csp-nonce" content="([^"]+)">/.exec(html)?.[1];

describe('the console at /admin', () => {
  test('every console address gets the page, with a strict policy and a fresh style nonce', async () => {
    const nonces = new Set<string>();
    for (const url of ['/admin', '/admin/', '/admin/bulletins', '/admin/bulletins/12', '/admin/audit']) {
      const res = await t.app.inject({ url });
      assert.equal(res.statusCode, 200, url);
      assert.match(res.headers['content-type'] as string, /^text\/html/);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.equal(res.headers['x-frame-options'], 'DENY');
      assert.equal(res.headers['x-robots-tag'], 'noindex, nofollow');
      const nonce = nonceOf(res.body);
      assert.ok(nonce !== undefined, url);
      nonces.add(nonce);
      const csp = res.headers['content-security-policy'] as string;
      assert.match(csp, /script-src 'self';/);
      assert.ok(csp.includes(`style-src 'self' 'nonce-${nonce}';`), csp);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.match(csp, /connect-src 'self';/);
      assert.doesNotMatch(csp, /unsafe/);
    }
    assert.equal(nonces.size, 5, 'a new nonce on every load');
  });

  test('the preview may be framed by the console only, and carries the site config', async () => {
    const res = await t.app.inject({ url: '/admin/preview.html' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN');
    const csp = res.headers['content-security-policy'] as string;
    assert.match(csp, /frame-ancestors 'self'/);
    assert.match(csp, /style-src 'self';/);
    assert.match(res.body, /<meta name="site-config" content="[^"]*productName/);
  });

  test('assets are cached for good; a missing one is a 404, not the page', async () => {
    const asset = await t.app.inject({ url: '/admin/assets/console-abc123.js' });
    assert.equal(asset.statusCode, 200);
    assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
    const missing = await t.app.inject({ url: '/admin/assets/console-gone.js' });
    assert.equal(missing.statusCode, 404);
    assert.doesNotMatch(missing.body, /<html/);
  });

  test('without a built console there is no /admin', async () => {
    const bare = await startTestApp({ env: { CONSOLE_ROOT: join(root, 'not-built') } });
    try {
      assert.equal((await bare.app.inject({ url: '/admin' })).statusCode, 404);
    } finally {
      await bare.close();
    }
  });
});
