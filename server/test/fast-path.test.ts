/**
 * Cached reads answered again before routing (lib/fast-path.ts) are the very replies Fastify sent:
 * same status, headers (in order) and bytes, for every encoding, 304 and HEAD; a write makes the
 * next read fresh; URLs not seen before reach Fastify. Over real HTTP, since app.inject never
 * passes the server's 'request' event. Runs on SQLite, and on PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { createBulletin } from '../src/bulletins/repository.js';
import type { FastPath } from '../src/lib/fast-path.js';
import { bearer, dialect, startTestApp, type TestApp } from './helpers.js';

interface Reply {
  status: number;
  /** Names and values as they came, in order, but Date. */
  headers: string[];
  body: Buffer;
}

function send(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${base}${path}`, { method, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const raw = incoming.rawHeaders;
        const kept: string[] = [];
        for (let i = 0; i < raw.length; i += 2) {
          if (raw[i]?.toLowerCase() !== 'date') kept.push(`${raw[i]}: ${raw[i + 1]}`);
        }
        resolve({ status: incoming.statusCode ?? 0, headers: kept, body: Buffer.concat(chunks) });
      });
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('the fast path for cached reads', () => {
  let t: TestApp;
  let base: string;
  let fast: FastPath;
  let id = 0;

  before(async () => {
    t = await startTestApp();
    for (let n = 1; n <= 12; n++) {
      id = await createBulletin(t.db.kysely, {
        title: `公告 ${n}`,
        content: `<p>${'正文'.repeat(300)} ${n}</p>`,
        pinned: false,
      });
    }
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    assert.ok(t.app.fastPath !== undefined, 'on with LOG_LEVEL=silent and no METRICS_TOKEN');
    fast = t.app.fastPath;
  });
  after(() => t.close());

  /** Asks twice: Fastify answers the first, the fast path the second, with the same reply. */
  async function twice(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
    const before = fast.replayed;
    const first = await send(base, path, headers, method);
    assert.equal(fast.replayed, before, `${method} ${path} ${JSON.stringify(headers)}: first from Fastify`);
    // The reply is recorded once it has gone ('finish'), which may come a turn after the client
    // has it: until then the same request still reaches Fastify, with the same reply.
    for (let attempt = 0; attempt < 50 && fast.replayed === before; attempt++) {
      const again = await send(base, path, headers, method);
      assert.equal(again.status, first.status);
      assert.deepEqual(again.headers, first.headers);
      assert.ok(again.body.equals(first.body), `${method} ${path}: same bytes`);
      if (fast.replayed === before) await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(fast.replayed, before + 1, `${method} ${path} ${JSON.stringify(headers)}: replayed`);
    return first;
  }

  /** Asks until the fast path answers (the reply Fastify sent is recorded on 'finish'). */
  async function warm(path: string): Promise<void> {
    const before = fast.replayed;
    for (let attempt = 0; attempt < 50 && fast.replayed === before; attempt++) {
      await send(base, path);
      if (fast.replayed === before) await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(fast.replayed, before + 1, `${path}: replayed`);
  }

  test('replays Fastify’s status, headers and bytes for each encoding, 304 and HEAD', async () => {
    const paths = [
      `/v1/bulletin/detail?id=${id}`,
      '/v1/bulletin/page?page_index=1&page_size=10',
      '/v1/bulletin/page',
      '/v1/common/appconfig',
    ];
    for (const path of paths) {
      const plain = await twice(path);
      assert.equal(plain.status, 200);
      assert.ok(plain.headers.includes('access-control-allow-origin: *'));
      assert.ok(plain.headers.includes('cache-control: no-cache'));
      assert.ok(plain.headers.some((line) => line.startsWith('content-security-policy: ')));
      // The same as Fastify without the fast path (app.inject never takes it).
      assert.ok(plain.body.equals((await t.app.inject({ url: path })).rawPayload));
      for (const encoding of ['br', 'gzip', 'gzip, deflate, br', 'identity']) {
        await twice(path, { 'accept-encoding': encoding });
      }
      // @fastify/compress takes `*` where the cache does not: never replayed with the cache's bytes.
      const before = fast.replayed;
      const star = await send(base, path, { 'accept-encoding': '*' });
      assert.deepEqual(await send(base, path, { 'accept-encoding': '*' }), star);
      if (star.headers.some((line) => line.startsWith('content-encoding: '))) assert.equal(fast.replayed, before);
      await twice(path, {}, 'HEAD');
      await twice(path, { 'accept-encoding': 'br' }, 'HEAD');
      const etag = plain.headers.find((line) => line.startsWith('etag: '))?.slice('etag: '.length) ?? '';
      assert.equal((await twice(path, { 'if-none-match': etag, 'accept-encoding': 'br' })).status, 304);
      assert.equal((await twice(path, { 'if-none-match': `"other", ${etag}` }, 'HEAD')).status, 304);
    }
    const compressed = await send(base, paths[0] ?? '', { 'accept-encoding': 'br' });
    assert.ok(compressed.headers.includes('content-encoding: br'));
  });

  test('a write makes the next read fresh', async () => {
    const path = `/v1/bulletin/detail?id=${id}`;
    await warm(path);
    const edited = await fetch(`${base}/v1/admin/bulletins/${id}`, {
      method: 'PUT',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ title: '改过的标题', content: '<p>新</p>', topup: 0 }),
    });
    assert.equal(edited.status, 200, await edited.text());
    const before = fast.replayed;
    const fresh = await send(base, path);
    assert.equal(fast.replayed, before);
    assert.equal((JSON.parse(fresh.body.toString()) as { Title: string }).Title, '改过的标题');
    for (let attempt = 0; attempt < 50 && fast.replayed === before; attempt++) {
      assert.deepEqual(await send(base, path), fresh);
      if (fast.replayed === before) await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(fast.replayed, before + 1);
  });

  test(
    'a commit by another process on the SQLite file is in the very next read',
    { skip: dialect !== 'sqlite' },
    async () => {
      const path = `/v1/bulletin/detail?id=${id}`;
      const other = new SQLite(t.config.database.kind === 'sqlite' ? t.config.database.path : '');
      try {
        for (let round = 1; round <= 5; round++) {
          await warm(path);
          // Another connection is what another process is to SQLite: this server learns of its
          // commit only from data_version.
          other.prepare('UPDATE bulletins SET title = ? WHERE id = ?').run(`别处改的 ${round}`, id);
          const [fresh, again] = await Promise.all([send(base, path), send(base, path)]);
          for (const reply of [fresh, again])
            assert.equal((JSON.parse(reply.body.toString()) as { Title: string }).Title, `别处改的 ${round}`);
        }
      } finally {
        other.close();
      }
    },
  );

  test('another query order, unknown parameters or another method reach Fastify as before', async () => {
    await warm('/v1/bulletin/page?page_index=1&page_size=10');
    for (const path of [
      '/v1/bulletin/page?page_size=10&page_index=1',
      '/v1/bulletin/page?page_index=1&page_size=10&extra=1',
      '/v1/bulletin/page/?page_index=1&page_size=10',
      `/v1/bulletin/detail?id=x`,
    ]) {
      const before = fast.replayed;
      const reply = await send(base, path);
      assert.equal(fast.replayed, before, `${path} goes to Fastify`);
      const expected = await t.app.inject({ url: path });
      assert.equal(reply.status, expected.statusCode, path);
      assert.ok(reply.body.equals(expected.rawPayload), path);
    }
    const options = await send(
      base,
      '/v1/bulletin/page?page_index=1&page_size=10',
      { origin: 'https://a.example' },
      'OPTIONS',
    );
    assert.equal(options.status, 204);
    const before = fast.replayed;
    await send(base, '/v1/bulletin/page?page_index=1&page_size=10', { 'x-no-compression': '1' });
    assert.equal(fast.replayed, before, 'x-no-compression goes to Fastify');
  });
});

describe('the fast path with request lines and metrics on', () => {
  let t: TestApp;
  let base: string;
  let id = 0;
  const lines: Record<string, unknown>[] = [];
  const metricsToken = 'm'.repeat(32);

  before(async () => {
    const logStream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
    t = await startTestApp({ env: { LOG_LEVEL: 'info', METRICS_TOKEN: metricsToken, TRUST_PROXY: '1' }, logStream });
    id = await createBulletin(t.db.kysely, { title: '公告', content: '<p>正文</p>', pinned: false });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(() => t.close());

  const requestLines = (url: string) => lines.filter((line) => line.msg === 'request' && line.url === url);

  async function detailCount(): Promise<number> {
    const text = await (
      await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
    ).text();
    const line = text
      .split('\n')
      .find((l) => l.startsWith('http_request_duration_seconds_count{') && l.includes('route="/v1/bulletin/detail"'));
    return Number(line?.split(' ').at(-1) ?? 0);
  }

  test('a replay is logged like a reply from Fastify, and counted in the metrics', async () => {
    const fast = t.app.fastPath;
    assert.ok(fast !== undefined, 'on at LOG_LEVEL=info with METRICS_TOKEN');
    const path = `/v1/bulletin/detail?id=${id}`;
    const countBefore = await detailCount();
    const headers = { 'x-forwarded-for': '203.0.113.7' };
    let sent = 0;
    for (let attempt = 0; attempt < 50 && fast.replayed < 3; attempt++) {
      assert.equal((await send(base, path, headers)).status, 200);
      sent += 1;
      if (fast.replayed === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    assert.ok(fast.replayed >= 3, 'replayed');
    // Every request has its line: the first ones from Fastify's hook, the rest from the fast path.
    const logged = requestLines(path);
    assert.equal(logged.length, sent);
    const ids = new Set(logged.map((line) => line.reqId));
    assert.equal(ids.size, sent, 'no two lines share a request id');
    for (const line of logged) {
      assert.match(String(line.reqId), /^req-[0-9a-z]+$/);
      assert.deepEqual(
        { method: line.method, status: line.status, ip: line.ip, level: line.level },
        { method: 'GET', status: 200, ip: '203.0.113.7', level: 30 },
      );
      assert.equal(typeof line.ms, 'number');
      assert.deepEqual(Object.keys(line), Object.keys(logged[0] ?? {}), 'the same fields in the same order');
    }
    assert.equal((await detailCount()) - countBefore, sent, 'each request counted once under its route');
  });
});
