/**
 * The request line (docs/monitoring.md#logs): the same bytes pino's child logger writes for
 * `{reqId, method, url, status, ms, ip}` and "request", for a reply from Fastify and for a replay
 * from the fast path, with URLs and forwarded addresses that need escaping; the same fields and
 * the same metrics for a reply and its replay (docs/architecture.md#how-a-request-flows-through-the-server);
 * and still written when the server stops right after a request.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { createBulletin } from '../src/bulletins/repository.js';
import { createTestDatabase, spawnServer, startTestApp, testEnv, type TestApp } from './helpers.js';

/** A GET over a fresh connection; answers the status once the body has arrived. */
function get(base: string, path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((done, fail) => {
    // The path as given, not through a URL, which would escape its quotes and backslashes.
    const { hostname, port } = new URL(base);
    const req = httpRequest({ hostname, port, path, headers, agent: false }, (res) => {
      res.resume();
      res.once('end', () => done(res.statusCode ?? 0));
    });
    req.once('error', fail);
    req.end();
  });
}

/** What pino itself writes for this line: a child logger with the request id, at the line's time. */
function pinoLine(line: Record<string, unknown>): string {
  let written = '';
  const { reqId, method, url, status, ms, ip, time } = line;
  const logger = pino(
    { level: 'info', timestamp: () => `,"time":${String(time)}` },
    { write: (s: string) => (written = s) },
  );
  logger.child({ reqId }).info({ method, url, status, ms, ip }, 'request');
  return written;
}

describe('the request line', () => {
  let t: TestApp;
  let base: string;
  let id = 0;
  const written: string[] = [];

  before(async () => {
    t = await startTestApp({
      env: { LOG_LEVEL: 'info', TRUST_PROXY: '1' },
      logStream: { write: (line: string) => void written.push(line) },
    });
    id = await createBulletin(t.db.kysely, { title: '公告', content: '<p>正文</p>', pinned: false });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(() => t.close());

  const requestLines = (url: string) =>
    written.filter((line) => {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      return parsed.msg === 'request' && parsed.url === url;
    });

  /** Every line for `url` is, byte for byte, the one pino writes for the same values. */
  function assertPinoLines(url: string, count: number): Record<string, unknown>[] {
    const lines = requestLines(url);
    assert.equal(lines.length, count, `${count} line(s) for ${url}`);
    return lines.map((line) => {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      assert.equal(line, pinoLine(parsed));
      assert.deepEqual(Object.keys(parsed), [
        'level',
        'time',
        'pid',
        'hostname',
        'reqId',
        'method',
        'url',
        'status',
        'ms',
        'ip',
        'msg',
      ]);
      return parsed;
    });
  }

  test('a reply from Fastify: a route, a 404 and a URL with quotes and backslashes', async () => {
    assert.equal(await get(base, '/healthz'), 200);
    assert.equal(await get(base, '/v1/nothing/here?q="a\\b"&z=%E4%B8%AD'), 404);
    assert.equal(await get(base, '/v1/common/appconfig', { 'x-forwarded-for': '"quoted\\addr' }), 200);
    const [health] = assertPinoLines('/healthz', 1);
    assert.deepEqual(
      { method: health?.method, status: health?.status, ip: health?.ip },
      {
        method: 'GET',
        status: 200,
        ip: '127.0.0.1',
      },
    );
    assertPinoLines('/v1/nothing/here?q="a\\b"&z=%E4%B8%AD', 1);
    const [forwarded] = assertPinoLines('/v1/common/appconfig', 1);
    assert.equal(forwarded?.ip, '"quoted\\addr');
  });

  test('a replay from the fast path', async () => {
    const fast = t.app.fastPath;
    assert.ok(fast !== undefined);
    const path = `/v1/bulletin/detail?id=${id}`;
    let sent = 0;
    for (let attempt = 0; attempt < 50 && fast.replayed < 3; attempt++) {
      assert.equal(await get(base, path, { 'x-forwarded-for': '203.0.113.7' }), 200);
      sent += 1;
      if (fast.replayed === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    assert.ok(fast.replayed >= 3, 'replayed');
    for (const line of assertPinoLines(path, sent)) assert.equal(line.ip, '203.0.113.7');
  });
});

/** The request counts of a scrape by their labels, leaving out the scrapes themselves. */
function requestCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of text.matchAll(/^http_request_duration_seconds_count\{(.*)\} (\S+)$/gm)) {
    const labels = match[1] ?? '';
    if (!labels.includes('route="/metrics"')) counts.set(labels, Number(match[2]));
  }
  return counts;
}

/** What moved between two scrapes: labels and by how much. */
function increments(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const moved: Record<string, number> = {};
  for (const [labels, count] of after) {
    const by = count - (before.get(labels) ?? 0);
    if (by !== 0) moved[labels] = by;
  }
  return moved;
}

describe('a reply from Fastify and its replay from the fast path', () => {
  const metricsToken = 'test-metrics-token-0123456789abcdefghij';
  let t: TestApp;
  let base: string;
  const written: string[] = [];
  let wrote: () => void = () => undefined;

  before(async () => {
    t = await startTestApp({
      env: { LOG_LEVEL: 'info', TRUST_PROXY: '1', METRICS_TOKEN: metricsToken },
      logStream: {
        write: (line: string) => {
          written.push(line);
          wrote();
        },
      },
    });
    await createBulletin(t.db.kysely, { title: '公告', content: '<p>正文</p>', pinned: false });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(() => t.close());

  const scrape = async () =>
    requestCounts((await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${metricsToken}` } })).body);

  /** The request lines for `url`, once there are `count` of them: each is written once the reply has gone. */
  async function linesFor(url: string, count: number): Promise<Record<string, unknown>[]> {
    const parsed = () =>
      written
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.msg === 'request' && line.url === url);
    while (parsed().length < count) await new Promise<void>((resolve) => (wrote = resolve));
    return parsed();
  }

  test('write the same line fields and count the same metric', async () => {
    const fast = t.app.fastPath;
    assert.ok(fast !== undefined);
    const path = '/v1/bulletin/page?page_index=1&page_size=15';
    const headers = { 'x-forwarded-for': '198.51.100.9' };
    const counted = { 'route="/v1/bulletin/page",method="GET",status="200"': 1 };
    // Asked until one is replayed: Fastify answers the first (and, on PostgreSQL, any asked before
    // the bulletin's own change has arrived, which makes its cached answer stale once).
    let scraped = await scrape();
    for (let sent = 1; fast.replayed === 0 && sent <= 50; sent++) {
      assert.equal(await get(base, path, headers), 200);
      await linesFor(path, sent);
      const now = await scrape();
      assert.deepEqual(increments(scraped, now), counted, `request ${sent} counted once`);
      scraped = now;
      // Recorded by the onResponse hook once its line is written; a turn or two at most.
      for (let turn = 0; turn < 50 && fast.size === 0; turn++) await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(fast.replayed, 1, 'one replayed');
    const lines = await linesFor(path, 0);
    const [fromFastify, fromReplay] = lines.slice(-2);

    const differing = ['reqId', 'time', 'ms'];
    const same = (line: Record<string, unknown> | undefined) =>
      Object.fromEntries(Object.entries(line ?? {}).filter(([key]) => !differing.includes(key)));
    assert.deepEqual(Object.keys(fromReplay ?? {}), Object.keys(fromFastify ?? {}));
    assert.deepEqual(same(fromReplay), same(fromFastify));
    assert.deepEqual(same(fromFastify), {
      level: 30,
      pid: process.pid,
      hostname: fromFastify?.hostname,
      method: 'GET',
      url: path,
      status: 200,
      ip: '198.51.100.9',
      msg: 'request',
    });
    assert.notEqual(fromReplay?.reqId, fromFastify?.reqId);
    assert.equal(typeof fromReplay?.ms, 'number');
  });
});

describe('the request line of a server process', () => {
  test('is written when the server stops right after the request', async () => {
    const database = await createTestDatabase();
    try {
      const server = await spawnServer(testEnv(database, { LOG_LEVEL: 'info' }));
      assert.equal(await get(server.url, '/v1/common/appconfig'), 200);
      assert.equal(await server.stop('SIGTERM'), 0);
      const lines = server.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
      const request = lines.find((line) => line.msg === 'request' && line.url === '/v1/common/appconfig');
      assert.equal(request?.status, 200, server.logs.join('\n'));
      assert.equal(lines.at(-1)?.msg, 'stopped', 'the last line, logged just before the process exits');
    } finally {
      await database.drop();
    }
  });
});
