/**
 * What /metrics sends passes Prometheus's own checker, `promtool check metrics`, with no
 * problem at all (docs/monitoring.md#metrics): a real scrape of the built server after demo
 * traffic, with one process and with WORKERS=2 (the supervisor's added-up scrape). Skipped, with
 * the reason, where promtool is not installed (scripts/ensure-tools.sh installs it). Runs on
 * SQLite, and on PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  bearer,
  createTestDatabase,
  repoRoot,
  spawnServer,
  testEnv,
  type ServerProcess,
  type TestDatabase,
} from './helpers.js';

const metricsToken = 'promtool-metrics-token-0123456789abcdef';
const promtool = spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status === 0;
const skip = promtool ? false : 'promtool is not installed (Debian package prometheus; bash scripts/ensure-tools.sh)';

/** One request on a connection of its own, so that with workers the supervisor picks anew. */
function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; body: string }>((done, fail) => {
    const req = request(url, { method: options.method ?? 'GET', agent: false, headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end(options.body);
  });
}

/** What a visitor and an operator do: pages, reads, a download, misses, a write, a wrong token. */
async function demoTraffic(url: string): Promise<void> {
  for (let round = 0; round < 3; round++) {
    const paths = ['/', '/v1/bulletin/page', '/v1/bulletin/detail?id=1', '/v1/ping', '/dl/android', '/no/such'];
    // The apps' update checks (docs/releases.md#update-checks): one told to update, one current.
    paths.push('/v1/common/appversion/android/0.1.0', '/v1/common/updater/windows/999.0.0');
    for (const path of paths) {
      await send(`${url}${path}`);
    }
    await send(`${url}/`, { method: 'HEAD' });
    await send(`${url}/v1/admin/files`, { headers: { authorization: 'Bearer wrong' } });
  }
  const published = await send(`${url}/v1/admin/bulletins`, {
    method: 'POST',
    headers: { ...bearer, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'promtool', content: '<p>promtool</p>', topup: 0 }),
  });
  assert.equal(published.status, 201, published.body);
}

/** promtool's verdict on one scrape: its exit code and everything it printed. */
async function checkScrape(url: string): Promise<{ status: number | null; problems: string; text: string }> {
  const scrape = await send(`${url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  assert.equal(scrape.status, 200);
  const checked = spawnSync('promtool', ['check', 'metrics'], { input: scrape.body, encoding: 'utf8' });
  return { status: checked.status, problems: `${checked.stdout}${checked.stderr}`.trim(), text: scrape.body };
}

for (const workers of ['1', '2']) {
  describe(`promtool check metrics on a scrape with WORKERS=${workers}`, { skip }, () => {
    let database: TestDatabase;
    let server: ServerProcess;
    before(async () => {
      database = await createTestDatabase();
      server = await spawnServer(
        testEnv(database, { WORKERS: workers, DEMO_CONTENT: '1', METRICS_TOKEN: metricsToken }),
      );
      await demoTraffic(server.url);
    });
    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    test('finds no problem, and the scrape holds what the traffic made', async () => {
      const { status, problems, text } = await checkScrape(server.url);
      assert.equal(problems, '', 'promtool printed no problem');
      assert.equal(status, 0);
      assert.match(text, /^http_request_duration_seconds_count\{[^}]*route="\/v1\/bulletin\/page"/m);
      // Three downloads from one client: one counted (docs/public-api.md#stable-download-links).
      assert.match(text, /^chat_site_downloads_total\{os="android"\} 1$/m);
      assert.match(text, /^chat_site_update_checks_total\{os="android",client="app"\} 3$/m);
      assert.match(text, /^chat_site_update_offers_total\{os="android",client="app"\} 3$/m);
      assert.match(text, /^chat_site_update_checks_total\{os="windows",client="tauri"\} 3$/m);
      assert.match(text, /^nodejs_active_handles\{type="/m);
      assert.match(text, /^chat_site_ready 1$/m);
    });

    test("every metric deploy/alerts.yml names is in the scrape (Prometheus's own `up` aside)", async () => {
      const { text } = await checkScrape(server.url);
      const rules = readFileSync(join(repoRoot, 'deploy/alerts.yml'), 'utf8');
      const named = new Set([...rules.matchAll(/\b([a-z_]+)\{job="chat-site"/g)].map((match) => match[1]));
      assert.ok(named.size >= 5, [...named].join(' '));
      for (const name of named) {
        if (name === 'up') continue;
        assert.match(text, new RegExp(`^${name}(\\{| )`, 'm'), `${name} is exported`);
      }
    });
  });
}
