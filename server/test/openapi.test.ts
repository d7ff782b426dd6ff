/**
 * The API's OpenAPI document (docs/admin-api.md#api-documentation): valid OpenAPI 3.1, and
 * naming every route the app registers, so a route added without documentation fails here. And
 * its reference page at /api-docs: served from the server itself under a CSP of its own.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { RouteOptions } from 'fastify';
import { repoRoot, startTestApp, type TestApp } from './helpers.js';

/** Routes that are plumbing or for people, not API: each is left out of the document on purpose. */
const undocumented = new Set([
  'GET /metrics', // the scraper's, behind its own token (docs/monitoring.md#metrics)
  'GET /api-docs', // the reference page and its files
  'GET /api-docs/{name}',
  'GET /*', // the built site's static files
  'GET /admin', // the operator console's pages and files (docs/console.md#how-it-is-built)
  'GET /admin/*',
  'GET /admin/preview.html',
  'GET /admin/assets/*',
  // The update checks' platforms and versions past the router's limit, answered as the
  // documented routes answer them (server/src/updates/check-path.ts).
  'GET /v1/common/appversion/*',
  'GET /v1/common/updater/*',
]);

interface Operation {
  tags?: string[];
  security?: Record<string, string[]>[];
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; scheme?: string; in?: string; name?: string }> };
}

describe('the OpenAPI document', () => {
  let t: TestApp;
  const registered = new Set<string>();
  let document: Document;

  before(async () => {
    const onRoute = (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        // HEAD follows each GET by itself; OPTIONS answers preflights (CORS, the admin API's own).
        if (method === 'HEAD' || method === 'OPTIONS') continue;
        registered.add(`${method} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
      }
    };
    // With the built site, so that its static files' route is registered (and left out) too.
    const webRoot = join(repoRoot, 'web/dist');
    assert.ok(existsSync(join(webRoot, 'index.html')), `${webRoot} is missing: run npm run build first`);
    const env = { METRICS_TOKEN: 'test-metrics-token-0123456789abcdefghij', WEB_ROOT: webRoot };
    t = await startTestApp({ onRoute, env });
    const res = await t.app.inject('/v1/openapi.json');
    assert.equal(res.statusCode, 200);
    document = res.json<Document>();
  });
  after(async () => t?.close());

  test('is valid OpenAPI 3.1', async () => {
    assert.equal(document.openapi, '3.1.0');
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Record<string, unknown>);
    assert.deepEqual(result.errors, undefined);
    assert.equal(result.valid, true);
    assert.equal(validator.version, '3.1');
  });

  test('lists every public and admin route the app registers, and no other', () => {
    const documented = new Set(
      Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.keys(operations)
          .filter((method) => method !== 'head')
          .map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    assert.ok(registered.has('GET /*'), 'the static files are served');
    const expected = [...registered].filter((route) => !undocumented.has(route)).sort();
    assert.ok(expected.includes('GET /v1/bulletin/page') && expected.includes('PUT /v1/admin/packages'));
    assert.deepEqual([...documented].sort(), expected);
  });

  test('the admin routes name their security: the bearer ADMIN_TOKEN or the session cookie', () => {
    const schemes = document.components.securitySchemes;
    assert.deepEqual(schemes.adminToken && { type: schemes.adminToken.type, scheme: schemes.adminToken.scheme }, {
      type: 'http',
      scheme: 'bearer',
    });
    assert.deepEqual(
      schemes.session && { type: schemes.session.type, in: schemes.session.in, name: schemes.session.name },
      {
        type: 'apiKey',
        in: 'cookie',
        name: 'chat_site_session',
      },
    );
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!path.startsWith('/v1/admin/')) {
          assert.deepEqual(operation.security, [], `${method} ${path}`);
          continue;
        }
        assert.deepEqual(operation.tags, ['admin'], `${method} ${path}`);
        // Signing in is the one admin call open to anyone.
        const open = path === '/v1/admin/session' && method === 'post';
        assert.deepEqual(operation.security, open ? [] : [{ adminToken: [] }, { session: [] }], `${method} ${path}`);
      }
    }
    assert.deepEqual(document.paths['/v1/bulletin/page']?.get?.tags, ['public']);
    assert.deepEqual(document.paths['/readyz']?.get?.tags, ['health']);
  });

  test('is served publicly with CORS for any origin, and may be cached', async () => {
    const res = await t.app.inject({ url: '/v1/openapi.json', headers: { origin: 'https://elsewhere.example' } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(res.headers['cache-control'], 'public, max-age=300');
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/openapi.json',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], '*');
  });
});

describe('the API reference page', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => t?.close());

  test('is served from the server itself, with scripts from its own origin only', async () => {
    const res = await t.app.inject('/api-docs');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /style-src 'self'(;|$)/);
    assert.match(csp, /connect-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
    // No inline script, and nothing from another host.
    assert.doesNotMatch(res.body, /<script>|<script(?![^>]*\bsrc=)[^>]*>/);
    const sources = [...res.body.matchAll(/(?:src|href)="([^"]+)"/g)]
      .map((match) => match[1] ?? '')
      .filter((source) => source !== '/favicon.svg'); // the site's own, from WEB_ROOT
    assert.ok(sources.length >= 3);
    for (const source of sources) {
      assert.match(source, /^\/api-docs\//, source);
      const asset = await t.app.inject(source);
      assert.equal(asset.statusCode, 200, source);
      assert.match(String(asset.headers['content-type']), /^text\/(javascript|css)/, source);
      assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
    }
  });

  test('the start script points at the document; unknown files are 404 {status, msg}', async () => {
    const start = await t.app.inject('/api-docs/start.js');
    assert.match(start.body, /url: '\/v1\/openapi\.json'/);
    for (const name of ['index.html', 'package.json', '..%2Fpackage.json', 'constructor', '__proto__']) {
      const res = await t.app.inject(`/api-docs/${name}`);
      assert.equal(res.statusCode, 404, name);
      assert.equal(res.json<{ status: number }>().status, 404);
    }
  });

  test('the rest of the site keeps its own strict CSP', async () => {
    const res = await t.app.inject('/v1/ping');
    assert.equal(res.headers['content-security-policy'], "default-src 'none';frame-ancestors 'none'");
  });
});
