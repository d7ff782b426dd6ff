/**
 * The request line (docs/monitoring.md#logs): the same bytes pino's child logger writes for
 * `{reqId, method, url, status, ms, ip}` and "request", for a reply from Fastify and for a replay
 * from the fast path, with URLs and forwarded addresses that need escaping; and still written when
 * the server stops right after a request.
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
