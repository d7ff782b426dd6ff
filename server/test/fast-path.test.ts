/**
 * Cached reads answered again before routing (pipeline/fast-path.ts) are the very replies Fastify sent:
 * same status, headers (in order) and bytes, for every encoding, 304 and HEAD; a write makes the
 * next read fresh; URLs not seen before reach Fastify. Over real HTTP, since app.inject never
 * passes the server's 'request' event. A request that starts a connection is read by
 * pipeline/replay-connections.ts, which writes a replay to the socket itself: its bytes are compared
 * with the ones Node writes, and whatever it does not take must reach Node as if it had not been
 * there. Runs on SQLite, and on PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { createBulletin } from '../src/bulletins/repository.js';
import type { FastPath } from '../src/pipeline/fast-path.js';
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

/** A connection of its own, on which whole replies are read back as they came, byte for byte. */
class RawClient {
  readonly socket: Socket;
  #buffered = Buffer.alloc(0);
  #waiting: (() => void) | undefined;
  closed = false;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => {
      this.#buffered = Buffer.concat([this.#buffered, chunk]);
      this.#waiting?.();
    });
    this.socket.on('close', () => {
      this.closed = true;
      this.#waiting?.();
    });
  }

  send(text: string): void {
    this.socket.write(text, 'latin1');
  }

  /** The replies to requests with these `methods`, in order, each as it came. */
  async replies(methods: string[]): Promise<Buffer[]> {
    const replies: Buffer[] = [];
    for (const method of methods) {
      for (;;) {
        const reply = this.#take(method);
        if (reply !== undefined) {
          replies.push(reply);
          break;
        }
        assert.ok(!this.closed, `the connection closed with ${replies.length} of ${methods.length} replies`);
        await new Promise<void>((resolve) => (this.#waiting = resolve));
      }
    }
    return replies;
  }

  /** Resolves once the server has closed the connection. */
  async gone(): Promise<void> {
    while (!this.closed) await new Promise<void>((resolve) => (this.#waiting = resolve));
  }

  #take(method: string): Buffer | undefined {
    const end = this.#buffered.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const head = this.#buffered.toString('latin1', 0, end);
    const status = Number(head.split(' ')[1]);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
    const bodyLength = method === 'HEAD' || status === 304 ? 0 : Number(length ?? 0);
    const total = end + 4 + bodyLength;
    if (this.#buffered.length < total) return undefined;
    const reply = this.#buffered.subarray(0, total);
    this.#buffered = this.#buffered.subarray(total);
    return reply;
  }
}

/** A request as a client writes it, with `fields` (each line ending in CRLF) after Host. */
const plainRequest = (method: string, path: string, fields = ''): string =>
  `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n${fields}\r\n`;

/** A reply without its Date line, which changes each second. */
const undated = (reply: Buffer | undefined): string =>
  (reply ?? Buffer.alloc(0)).toString('latin1').replace(/\r\nDate: [^\r]*/, '');

const statusOf = (reply: Buffer | undefined): number =>
  Number((reply ?? Buffer.alloc(0)).toString('latin1').split(' ')[1]);

const bodyOf = (reply: Buffer | undefined): Buffer => {
  const bytes = reply ?? Buffer.alloc(0);
  return bytes.subarray(bytes.indexOf('\r\n\r\n') + 4);
};

/** Asks until the fast path answers (the reply Fastify sent is recorded on 'finish'). On
 * PostgreSQL nothing is kept until the server listens for change notices, and a notice of the rows
 * written just before drops what was kept: on a busy machine either may take a while, so this
 * asks for up to 10 s. */
async function warmUp(
  fast: FastPath,
  base: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<void> {
  const before = fast.replayed;
  const until = Date.now() + 10_000;
  for (let attempt = 0; fast.replayed === before && (attempt < 50 || Date.now() < until); attempt++) {
    await send(base, path, headers, method);
    if (fast.replayed === before) await new Promise((resolve) => setTimeout(resolve, attempt < 50 ? 0 : 20));
  }
  assert.equal(fast.replayed, before + 1, `${path}: replayed`);
}

describe('the fast path for cached reads', () => {
  let t: TestApp;
  let base: string;
  let fast: FastPath;
  let port = 0;
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
    port = (t.app.server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
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

  const warm = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    warmUp(fast, base, path, headers, method);

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
      // `*` names no encoding the cache holds: it is never replayed with the cache's bytes.
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
          // On a new connection too, where the replay was found before the commit was known.
          const raw = new RawClient(port);
          raw.send(plainRequest('GET', path));
          const [fresh, again, [direct]] = await Promise.all([
            send(base, path),
            send(base, path),
            raw.replies(['GET']),
          ]);
          raw.socket.destroy();
          for (const body of [fresh.body, again.body, bodyOf(direct)])
            assert.equal((JSON.parse(body.toString()) as { Title: string }).Title, `别处改的 ${round}`);
        }
      } finally {
        other.close();
      }
    },
  );

  test('a reply written to the socket is the one Node writes, byte for byte', async () => {
    const detail = `/v1/bulletin/detail?id=${id}`;
    const etag = (await send(base, detail)).headers.find((line) => line.startsWith('etag: '))?.slice(6) ?? '';
    for (const path of [detail, '/v1/bulletin/page?page_index=1&page_size=10', '/v1/common/appconfig']) {
      for (const [method, headers] of [
        ['GET', {}],
        ['GET', { 'Accept-Encoding': 'br' }],
        ['GET', { 'Accept-Encoding': 'gzip, deflate, br', 'User-Agent': 'test', 'X-Forwarded-For': '203.0.113.9' }],
        ['HEAD', {}],
        ['GET', { 'If-None-Match': etag }],
      ] as const) {
        const fields = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
        // On PostgreSQL a change notice that comes late (the rows written before the test, on a
        // busy machine) may drop the entry between warming and asking: warm it again then.
        let onSockets = 0;
        let direct: RawClient | undefined;
        let first: Buffer | undefined;
        for (
          let attempt = 0;
          attempt < 5 && (direct === undefined || fast.replayedOnSockets !== onSockets + 1);
          attempt++
        ) {
          direct?.socket.destroy();
          await warm(path, headers, method);
          onSockets = fast.replayedOnSockets;
          direct = new RawClient(port);
          direct.send(plainRequest(method, path, fields.join('')));
          [first] = await direct.replies([method]);
        }
        assert.ok(direct !== undefined && first !== undefined);
        assert.equal(fast.replayedOnSockets, onSockets + 1, `${method} ${path} ${fields.join('')}: on the socket`);
        // Content-Length keeps a request from the socket's reader: Node's server answers it.
        const viaNode = new RawClient(port);
        viaNode.send(plainRequest(method, path, `${fields.join('')}Content-Length: 0\r\n`));
        const [fromNode] = await viaNode.replies([method]);
        assert.equal(fast.replayedOnSockets, onSockets + 1);
        assert.equal(undated(first), undated(fromNode), `${method} ${path} ${fields.join('')}`);
        // The connection stays open, and its next request is read the same way.
        direct.send(plainRequest(method, path, fields.join('')));
        assert.equal(undated((await direct.replies([method]))[0]), undated(first));
        assert.equal(fast.replayedOnSockets, onSockets + 2);
        direct.socket.destroy();
        viaNode.socket.destroy();
      }
    }
  });

  test('requests sent together are answered in order, from the first one not taken by Node', async () => {
    const detail = `/v1/bulletin/detail?id=${id}`;
    const notSeen = '/v1/bulletin/page?page_index=2&page_size=3';
    await warm(detail);
    await warm(detail, {}, 'HEAD');
    const onSockets = fast.replayedOnSockets;
    const client = new RawClient(port);
    client.send(
      plainRequest('GET', detail) +
        plainRequest('HEAD', detail) +
        plainRequest('GET', notSeen) +
        plainRequest('OPTIONS', detail, 'Origin: https://a.example\r\nAccess-Control-Request-Method: GET\r\n') +
        plainRequest('GET', detail),
    );
    const replies = await client.replies(['GET', 'HEAD', 'GET', 'OPTIONS', 'GET']);
    client.socket.destroy();
    assert.deepEqual(replies.map(statusOf), [200, 200, 200, 204, 200]);
    assert.equal(fast.replayedOnSockets, onSockets + 2, 'the two before the first request Node must answer');
    const expected = (await t.app.inject({ url: detail })).rawPayload;
    assert.ok(bodyOf(replies[0]).equals(expected));
    assert.equal(bodyOf(replies[1]).length, 0);
    assert.ok(bodyOf(replies[2]).equals((await t.app.inject({ url: notSeen })).rawPayload));
    assert.ok(bodyOf(replies[4]).equals(expected));
  });

  test('a request the socket’s reader does not take reaches Node as if sent to it', async () => {
    const detail = `/v1/bulletin/detail?id=${id}`;
    await warm(detail);
    const cases: [string, string][] = [
      ['HTTP/1.0', `GET ${detail} HTTP/1.0\r\nHost: localhost\r\n\r\n`],
      ['a header twice', plainRequest('GET', detail, 'Accept: */*\r\nAccept: */*\r\n')],
      ['a folded header', plainRequest('GET', detail, 'User-Agent: a\r\n b\r\n')],
      ['Content-Length', plainRequest('GET', detail, 'Content-Length: 0\r\n')],
      ['chunked', `${plainRequest('GET', detail, 'Transfer-Encoding: chunked\r\n')}0\r\n\r\n`],
      ['Connection: close', plainRequest('GET', detail, 'Connection: close\r\n')],
      ['an absolute target', plainRequest('GET', `http://localhost${detail}`)],
      ['no Host', `GET ${detail} HTTP/1.1\r\n\r\n`],
      ['a method in lower case', `get ${detail} HTTP/1.1\r\nHost: localhost\r\n\r\n`],
      ['bare line feeds', `GET ${detail} HTTP/1.1\nHost: localhost\n\n`],
      ['a control character', plainRequest('GET', detail, 'X-Note: a\x01b\r\n')],
      ['a space in the target', plainRequest('GET', `${detail} x`)],
    ];
    for (const [name, bytes] of cases) {
      const onSockets = fast.replayedOnSockets;
      const fresh = new RawClient(port);
      fresh.send(bytes);
      const [handedOver] = await fresh.replies(['GET']);
      assert.equal(fast.replayedOnSockets, onSockets, `${name}: not on the socket`);
      // The same bytes on a connection Node's server has had from its first request.
      const nodes = new RawClient(port);
      nodes.send(plainRequest('OPTIONS', detail));
      await nodes.replies(['OPTIONS']);
      nodes.send(bytes);
      const [direct] = await nodes.replies(['GET']);
      assert.equal(undated(handedOver), undated(direct), name);
      fresh.socket.destroy();
      nodes.socket.destroy();
    }
  });

  test('a request that arrives in pieces is answered whole', async () => {
    const detail = `/v1/bulletin/detail?id=${id}`;
    await warm(detail);
    const bytes = plainRequest('GET', detail);
    const client = new RawClient(port);
    for (const piece of [bytes.slice(0, 10), bytes.slice(10, -3), bytes.slice(-3)]) {
      client.send(piece);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const [reply] = await client.replies(['GET']);
    client.socket.destroy();
    assert.equal(statusOf(reply), 200);
    assert.ok(bodyOf(reply).equals((await t.app.inject({ url: detail })).rawPayload));
  });

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
    // Two more on a connection of their own, which the socket's reader answers.
    const raw = new RawClient(Number(new URL(base).port));
    const request = plainRequest('GET', path, 'X-Forwarded-For: 203.0.113.7\r\n');
    raw.send(request + request);
    assert.deepEqual((await raw.replies(['GET', 'GET'])).map(statusOf), [200, 200]);
    raw.socket.destroy();
    assert.equal(fast.replayedOnSockets, 2);
    sent += 2;
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

describe('connections the socket’s reader holds', () => {
  let t: TestApp;
  let port = 0;
  let path = '';
  let closed = false;

  beforeEach(async () => {
    closed = false;
    t = await startTestApp();
    path = `/v1/bulletin/detail?id=${await createBulletin(t.db.kysely, { title: '公告', content: '<p>正文</p>', pinned: false })}`;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    const base = `http://127.0.0.1:${port}`;
    const fast = t.app.fastPath;
    assert.ok(fast !== undefined);
    await warmUp(fast, base, path);
  });
  afterEach(async () => {
    if (!closed) await t.close();
  });

  /** A new connection whose first reply came from the socket's reader. */
  async function held(): Promise<RawClient> {
    const onSockets = t.app.fastPath?.replayedOnSockets ?? 0;
    const client = new RawClient(port);
    client.send(plainRequest('GET', path));
    assert.equal(statusOf((await client.replies(['GET']))[0]), 200);
    assert.equal(t.app.fastPath?.replayedOnSockets, onSockets + 1);
    return client;
  }

  test(
    'a client that ends its side gets its reply, then the server ends the connection',
    { timeout: 20_000 },
    async () => {
      const client = new RawClient(port);
      client.socket.end(plainRequest('GET', path));
      assert.equal(statusOf((await client.replies(['GET']))[0]), 200);
      assert.equal(t.app.fastPath?.replayedOnSockets, 1);
      await client.gone();
    },
  );

  test('a connection read for many requests keeps one set of listeners', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const client = await held();
      for (let n = 0; n < 30; n++) {
        client.send(plainRequest('GET', path));
        assert.equal(statusOf((await client.replies(['GET']))[0]), 200);
      }
      assert.equal(t.app.fastPath?.replayedOnSockets, 31);
      client.socket.destroy();
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(
        warnings.map((warning) => warning.name),
        [],
      );
    } finally {
      process.off('warning', onWarning);
    }
  });

  test('an idle connection closes after the keep-alive timeout', { timeout: 20_000 }, async () => {
    const server = t.app.server as typeof t.app.server & { keepAliveTimeoutBuffer?: number };
    server.keepAliveTimeout = 200;
    server.keepAliveTimeoutBuffer = 0;
    const client = await held();
    await client.gone();
  });

  test('a stopping server closes an idle connection the socket’s reader holds', { timeout: 20_000 }, async () => {
    const idle = await held();
    closed = true;
    await t.close();
    await idle.gone();
  });

  test('a request on a held connection while the server stops is answered by Node', { timeout: 20_000 }, async () => {
    const client = await held();
    const fast = t.app.fastPath;
    fast?.close();
    client.send(plainRequest('GET', path));
    const [reply] = await client.replies(['GET']);
    assert.equal(statusOf(reply), 200);
    assert.equal(fast?.replayedOnSockets, 1);
    client.socket.destroy();
  });
});
