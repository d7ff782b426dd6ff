/**
 * The recommended nginx (deploy/nginx.conf, through scripts/deploy-check.sh nginx) keeps /metrics
 * off the outside, token or not, however the path is spelled; Prometheus scrapes the server
 * directly, where the token works (docs/monitoring.md#scraping-behind-the-proxy). Needs
 * `npm run build` first.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { spawnServer, type ServerProcess } from '../../testing/spawn-server.js';
import { createDatabase, type TestDatabase } from '../../testing/test-database.js';
import { call, ensureNginx, repoRoot, startNginx, waitFor, type Running } from './support.js';

const metricsToken = 'behind-nginx-metrics-token-0123456789ab';
const scraper = { authorization: `Bearer ${metricsToken}` };
// Every spelling nginx reads as /metrics or below it, and the server would answer.
const spellings = ['/metrics', '/metrics/', '/metrics?name=x', '//metrics', '/%6Detrics', '/metrics;x'];

let dir: string;
let database: TestDatabase;
let server: ServerProcess;
let nginx: Running & { dir: string };

before(async () => {
  assert.ok(ensureNginx(), 'Debian nginx is installed (scripts/ensure-nginx.sh)');
  dir = mkdtempSync(join(tmpdir(), 'chat-site-metrics-nginx-'));
  database = await createDatabase({ dialect: 'sqlite', prefix: 'metrics-nginx' });
  server = await spawnServer({
    DATABASE_URL: database.url,
    STORAGE_URL: `file:${join(dir, 'files')}`,
    SITE_CONFIG: join(repoRoot, 'site.config.json'),
    METRICS_TOKEN: metricsToken,
    TRUST_PROXY: '1',
    WORKERS: '1',
  });
  nginx = await startNginx([new URL(server.url).host]);
});

after(async () => {
  await nginx?.stop();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
  await database?.drop();
});

// The visitor: any 127.x.y.z is this machine. With TRUST_PROXY=1 the server logs what nginx
// forwarded for it under this address, and the direct requests under 127.0.0.1.
const visitor = '127.0.0.2';

/** The paths of the request log lines the server wrote for the visitor (one JSON line each). */
const servedToVisitor = () =>
  server.logs
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as { url: string; ip: string })
    .filter((entry) => entry.ip === visitor)
    .map((entry) => entry.url);

describe('/metrics behind deploy/nginx.conf', () => {
  test('the server itself answers the scraper, at /metrics and /metrics/', async () => {
    for (const path of ['/metrics', '/metrics/']) {
      const direct = await call(`${server.url}${path}`, { headers: scraper });
      assert.equal(direct.status, 200, path);
      assert.match(direct.body.toString(), /^# HELP /m);
    }
    assert.equal((await call(`${server.url}/metrics`)).status, 401);
  });

  test('through nginx every spelling is a 404 from nginx, with the token or without', async () => {
    for (const path of spellings) {
      for (const headers of [scraper, {}]) {
        const answer = await call(`${nginx.url}${path}`, { headers, localAddress: visitor });
        assert.equal(answer.status, 404, `${path} ${JSON.stringify(headers)}`);
        assert.doesNotMatch(answer.body.toString(), /# HELP|unauthorized/);
      }
    }
    // The rest of the site still goes through: once its line is logged, every earlier one is.
    assert.equal((await call(`${nginx.url}/v1/ping`, { localAddress: visitor })).status, 200);
    await waitFor('the ping’s log line', () => servedToVisitor().includes('/v1/ping'));
    assert.deepEqual(servedToVisitor(), ['/v1/ping'], 'no /metrics request reached the server');
  });
});
