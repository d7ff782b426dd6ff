/**
 * /metrics (docs/monitoring.md#metrics): only with METRICS_TOKEN, only for its bearer, and the
 * counters move with what the server does. The registry is the process's, so every check
 * compares a scrape before with one after. Runs on SQLite, and on PostgreSQL with
 * TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialect, startTestApp, wrongAuthorizations, type TestApp } from './helpers.js';
import { sample } from './metrics-sample.js';

const metricsToken = 'test-metrics-token-0123456789abcdefghij';
const scraper = { authorization: `Bearer ${metricsToken}` };

/** The sum of the samples of `name` whose labels include `labels`. */
describe('metrics with METRICS_TOKEN set', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ demo: true, env: { METRICS_TOKEN: metricsToken } });
  });
  after(async () => t?.close());

  async function scrape(): Promise<string> {
    const res = await t.app.inject({ url: '/metrics', headers: scraper });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    assert.equal(res.headers['cache-control'], 'no-store');
    return res.body;
  }

  test('a wrong or missing bearer token is a 401 {status, msg}, and the metrics stay hidden', async () => {
    const near = wrongAuthorizations.map((header) => header.replaceAll('test-admin-token', 'test-metrics-token'));
    for (const authorization of [...near, 'Bearer test-admin-token-0123456789abcdefghij']) {
      const res = await t.app.inject({ url: '/metrics', headers: authorization === '' ? {} : { authorization } });
      assert.equal(res.statusCode, 401, authorization);
      assert.deepEqual(res.json(), { status: 401, msg: 'unauthorized' });
      assert.equal(res.headers['www-authenticate'], 'Bearer');
      assert.doesNotMatch(res.body, /http_request/);
    }
  });

  test('requests are counted by matched route pattern and status, with their latency', async () => {
    const before = await scrape();
    const route = { route: '/v1/bulletin/detail', method: 'GET' };
    await t.app.inject('/v1/bulletin/detail?id=1');
    await t.app.inject('/v1/bulletin/detail?id=987654');
    await t.app.inject('/v1/bulletin/detail?id=x');
    await t.app.inject('/v1/file/preview/no-such-file-abc');
    await t.app.inject('/no/such/path/at/all');
    const after = await scrape();
    const count = (text: string, labels: Record<string, string>) =>
      sample(text, 'http_request_duration_seconds_count', labels);
    const moved = (labels: Record<string, string>) => count(after, labels) - count(before, labels);
    assert.equal(moved({ ...route, status: '200' }), 1);
    assert.equal(moved({ ...route, status: '404' }), 1);
    assert.equal(moved({ ...route, status: '400' }), 1);
    assert.equal(moved({ route: '/v1/file/preview/:key', status: '404' }), 1);
    assert.equal(moved({ route: '404', status: '404' }), 1);
    // The raw URLs never become labels: the set of series stays bounded.
    assert.doesNotMatch(after, /no-such-file-abc|no\/such\/path|id=987654/);
    // The histogram: every answer falls in the +Inf bucket, and time was spent.
    assert.equal(
      sample(after, 'http_request_duration_seconds_bucket', { ...route, status: '200', le: '+Inf' }) -
        sample(before, 'http_request_duration_seconds_bucket', { ...route, status: '200', le: '+Inf' }),
      1,
    );
    assert.ok(
      sample(after, 'http_request_duration_seconds_sum', route) >
        sample(before, 'http_request_duration_seconds_sum', route),
    );
  });

  test('read-cache lookups are counted as misses, then hits', async () => {
    const url = '/v1/bulletin/detail?id=2'; // one cache key per request, unasked before
    const lookups = (text: string, result: string) => sample(text, 'chat_site_read_cache_lookups_total', { result });
    // On PostgreSQL the cache is trusted once its LISTEN connection is up: until then every read
    // is a miss. Coming up counts as a change.
    const changes = t.app.contentChanges;
    while (!changes.trustworthy()) await changes.nextChange();
    const before = await scrape();
    assert.equal((await t.app.inject(url)).statusCode, 200);
    const afterFirst = await scrape();
    assert.equal(lookups(afterFirst, 'miss') - lookups(before, 'miss'), 1);
    assert.equal(lookups(afterFirst, 'hit') - lookups(before, 'hit'), 0);
    assert.equal((await t.app.inject(url)).statusCode, 200);
    assert.equal(lookups(await scrape(), 'hit') - lookups(afterFirst, 'hit'), 1);
    const scraped = await scrape();
    assert.ok(sample(scraped, 'chat_site_read_cache_entries') >= 1);
    assert.ok(sample(scraped, 'chat_site_read_cache_bytes') > 0);
  });

  test('downloads are counted by platform; HEAD and unknown platforms are not', async () => {
    const downloads = (text: string, os: string) => sample(text, 'chat_site_downloads_total', { os });
    // A visitor's browser: a crawler's download is not counted (docs/public-api.md#stable-download-links).
    const headers = {
      'user-agent': 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36',
    };
    const before = await scrape();
    // Two visitors on Android, one of them twice: counted once per client and day.
    for (const remoteAddress of ['192.0.2.1', '192.0.2.2', '192.0.2.2']) {
      assert.equal((await t.app.inject({ url: '/dl/android', headers, remoteAddress })).statusCode, 302);
    }
    assert.equal((await t.app.inject({ url: '/dl/windows', headers })).statusCode, 302);
    assert.equal((await t.app.inject({ url: '/dl/windows' })).statusCode, 302, 'a bot, not counted');
    assert.equal((await t.app.inject({ method: 'HEAD', url: '/dl/mac', headers })).statusCode, 302);
    assert.equal((await t.app.inject('/dl/beos')).statusCode, 404);
    const after = await scrape();
    assert.equal(downloads(after, 'android') - downloads(before, 'android'), 2);
    assert.equal(downloads(after, 'windows') - downloads(before, 'windows'), 1);
    assert.equal(downloads(after, 'mac') - downloads(before, 'mac'), 0);
    assert.doesNotMatch(after, /os="beos"/);
  });

  test('database queries are timed and its pool is reported', async () => {
    const before = await scrape();
    await t.app.inject('/v1/bulletin/page?page_index=2&page_size=3');
    const after = await scrape();
    assert.ok(
      sample(after, 'chat_site_db_query_duration_seconds_count') >
        sample(before, 'chat_site_db_query_duration_seconds_count'),
    );
    const connections = sample(after, 'chat_site_db_pool_connections');
    if (dialect === 'sqlite') assert.equal(connections, 1);
    else assert.ok(connections >= 1, `${connections} connections`);
    assert.ok(sample(after, 'chat_site_db_pool_idle_connections') <= connections);
    assert.equal(sample(after, 'chat_site_db_pool_waiting_queries'), 0);
  });

  test("Node's own metrics are there: memory, event loop, garbage collection", async () => {
    const text = await scrape();
    for (const name of [
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      assert.ok(sample(text, name) > 0 || text.includes(`# TYPE ${name} `), name);
    }
    assert.ok(sample(text, 'process_resident_memory_bytes') > 0);
  });
});

describe('metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => t?.close());

  test('/metrics does not exist: a 404 like any unknown path, whatever the token', async () => {
    for (const headers of [{}, scraper, { authorization: 'Bearer ' }]) {
      const res = await t.app.inject({ url: '/metrics', headers });
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), { status: 404, msg: 'not found' });
    }
  });
});
