/**
 * Public reads are answered from memory until content changes, wherever the change is made: this
 * server's admin API, another server on the same database, the admin command line, or (on
 * PostgreSQL) anyone writing to the tables. Runs on SQLite, and on PostgreSQL with
 * TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { createBulletin } from '../src/bulletins/repository.js';
import type { ContentChanges } from '../src/db/changes.js';
import { entryOverheadBytes, ReadCache, preferredEncoding } from '../src/pipeline/read-cache.js';
import {
  adminToken,
  bearer,
  cliPath,
  createTestDatabase,
  dialect,
  spawnServer,
  startTestApp,
  testEnv,
  type ServerProcess,
  type TestApp,
  type TestDatabase,
} from './helpers.js';

interface PageAnswer {
  count: number;
  list: { id: number; title: string }[];
}

const pagePath = '/v1/bulletin/page?page_index=1&page_size=50';

async function titles(url: string): Promise<string[]> {
  const response = await fetch(`${url}${pagePath}`);
  assert.equal(response.status, 200);
  return ((await response.json()) as PageAnswer).list.map((item) => item.title);
}

/** Polls `url` until `check` holds; answers how long that took, or fails after `limitMs`. */
async function within(limitMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > limitMs) assert.fail(`not seen within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function publish(url: string, title: string): Promise<number> {
  const response = await fetch(`${url}/v1/admin/bulletins`, {
    method: 'POST',
    headers: { ...bearer, 'content-type': 'application/json' },
    body: JSON.stringify({ title, content: `<p>${title}</p>` }),
  });
  assert.equal(response.status, 201);
  return ((await response.json()) as { id: number }).id;
}

describe('answers from memory, in-process', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    for (let n = 1; n <= 30; n++) {
      await createBulletin(t.db.kysely, {
        title: `公告 ${n}`,
        content: `<p>${'正文'.repeat(40)} ${n}</p>`,
        pinned: false,
      });
    }
  });
  after(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

  test('br, gzip and plain answers carry the same JSON and ETag; If-None-Match gets 304; HEAD is plain', async () => {
    const plain = await get(pagePath);
    const br = await get(pagePath, { 'accept-encoding': 'gzip, br' });
    const gz = await get(pagePath, { 'accept-encoding': 'gzip' });
    const refused = await get(pagePath, { 'accept-encoding': 'br;q=0, gzip;q=0.5' });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(refused.headers['content-encoding'], 'gzip');
    const json = JSON.parse(plain.body) as PageAnswer;
    assert.equal(json.count, 30);
    assert.deepEqual(JSON.parse(brotliDecompressSync(br.rawPayload).toString()), json);
    assert.deepEqual(JSON.parse(gunzipSync(gz.rawPayload).toString()), json);
    for (const answer of [br, gz]) {
      assert.equal(answer.headers.etag, plain.headers.etag);
      // Added to what the CORS plugin set there, not in its place.
      assert.equal(answer.headers.vary, 'Origin, accept-encoding');
      assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(answer.headers['cache-control'], 'no-cache');
      assert.equal(answer.headers['access-control-allow-origin'], '*');
    }
    const etag = String(plain.headers.etag);
    const revalidated = await get(pagePath, { 'if-none-match': etag, 'accept-encoding': 'br' });
    assert.equal(revalidated.statusCode, 304);
    assert.equal(revalidated.rawPayload.length, 0);
    const head = await t.app.inject({ method: 'HEAD', url: pagePath, headers: { 'accept-encoding': 'br' } });
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers['content-encoding'], undefined);
    assert.equal(head.headers.etag, etag);
  });

  test('a publish through the admin API is in the very next read, and so is a removal', async () => {
    const before = JSON.parse((await get(pagePath)).body) as PageAnswer;
    const posted = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/bulletins',
      headers: bearer,
      payload: { title: '刚刚发布', content: '<p>新</p>' },
    });
    assert.equal(posted.statusCode, 201);
    const { id } = JSON.parse(posted.body) as { id: number };
    const afterPublish = JSON.parse((await get(pagePath)).body) as PageAnswer;
    assert.equal(afterPublish.count, before.count + 1);
    assert.equal(afterPublish.list[0]?.title, '刚刚发布');
    assert.equal(JSON.parse((await get(`/v1/bulletin/detail?id=${id}`)).body).Title, '刚刚发布');
    const removed = await t.app.inject({ method: 'DELETE', url: `/v1/admin/bulletins/${id}`, headers: bearer });
    assert.equal(removed.statusCode, 204);
    assert.equal((JSON.parse((await get(pagePath)).body) as PageAnswer).count, before.count);
    assert.equal((await get(`/v1/bulletin/detail?id=${id}`)).statusCode, 404);
  });

  test('every page past the last one is one answer, whatever its number', async () => {
    const past = async (index: number) => t.app.inject(`/v1/bulletin/page?page_index=${index}&page_size=15`);
    const first = await past(999_999);
    assert.equal(first.statusCode, 200);
    assert.deepEqual(first.json<PageAnswer>().list, []);
    const held = t.app.readCache.entries;
    for (let index = 1000; index < 1200; index++) {
      const answer = await past(index);
      assert.equal(answer.headers.etag, first.headers.etag);
    }
    assert.equal(t.app.readCache.entries, held, 'no new entry for another empty page');
  });

  test('a failed admin request does not throw the cache away', async () => {
    const first = await get(pagePath);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/bulletins',
      headers: { authorization: 'Bearer wrong-token-0123456789' },
      payload: { title: 'x', content: 'y' },
    });
    assert.equal(refused.statusCode, 401);
    if (dialect === 'sqlite') {
      // Written on this server's own connection with no notice at all: a cached answer stays.
      await createBulletin(t.db.kysely, { title: '悄悄写入', content: '', pinned: false });
      assert.equal((await get(pagePath)).headers.etag, first.headers.etag);
    } else {
      // On PostgreSQL the table's trigger tells the server about any write, this one too.
      await createBulletin(t.db.kysely, { title: '悄悄写入', content: '', pinned: false });
      await within(
        1000,
        async () => (JSON.parse((await get(pagePath)).body) as PageAnswer).list[0]?.title === '悄悄写入',
      );
    }
  });
});

describe('READ_CACHE_MAX_BYTES=0', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { READ_CACHE_MAX_BYTES: '0' } });
  });
  after(() => t.close());

  test('every read comes from the database, even after a write nothing announced', async () => {
    assert.equal((JSON.parse((await t.app.inject(pagePath)).body) as PageAnswer).count, 0);
    await createBulletin(t.db.kysely, { title: '直接写入', content: '', pinned: false });
    const answer = JSON.parse((await t.app.inject(pagePath)).body) as PageAnswer;
    assert.deepEqual(
      answer.list.map((item) => item.title),
      ['直接写入'],
    );
  });
});

describe(`several servers on one ${dialect} database`, () => {
  let database: TestDatabase;
  let one: ServerProcess;
  let two: ServerProcess;
  before(async () => {
    database = await createTestDatabase();
    one = await spawnServer(testEnv(database));
    two = await spawnServer(testEnv(database));
  });
  after(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
    await database.drop();
  });

  test('a publish, an edit and a removal through one server are served by the other within one second', async () => {
    assert.deepEqual(await titles(two.url), []);
    assert.deepEqual(await titles(two.url), []); // now held in two's memory
    const id = await publish(one.url, '服务器一发布');
    const published = await within(1000, async () => (await titles(two.url)).includes('服务器一发布'));
    const edit = await fetch(`${one.url}/v1/admin/bulletins/${id}`, {
      method: 'PUT',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ title: '服务器一修改' }),
    });
    assert.equal(edit.status, 200);
    const detail = `${two.url}/v1/bulletin/detail?id=${id}`;
    await within(
      1000,
      async () => ((await (await fetch(detail)).json()) as { Title: string }).Title === '服务器一修改',
    );
    assert.equal(
      (await fetch(`${one.url}/v1/admin/bulletins/${id}`, { method: 'DELETE', headers: bearer })).status,
      204,
    );
    await within(1000, async () => (await fetch(detail)).status === 404);
    process.stdout.write(`# seen by the other server after ${published.toFixed(0)} ms\n`);
  });

  test('package and CDN settings changed through one server reach the other within one second', async () => {
    const appconfig = `${two.url}/v1/common/appconfig`;
    const before = (await (await fetch(appconfig)).json()) as Record<string, unknown>;
    assert.equal(before.use_cdn, 0);
    const put = await fetch(`${one.url}/v1/admin/appconfig`, {
      method: 'PUT',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ use_cdn: 1, common_cdn_bucket_url: 'https://cdn.example.com/bucket' }),
    });
    assert.equal(put.status, 200);
    await within(1000, async () => ((await (await fetch(appconfig)).json()) as { use_cdn: number }).use_cdn === 1);
  });

  test('the admin command line, another process, is seen by a running server within one second', async () => {
    await titles(one.url);
    const added = await new Promise<string>((done, fail) =>
      execFile(
        process.execPath,
        [cliPath, 'bulletins', 'add', '--title', '命令行发布', '--content', '<p>x</p>'],
        { env: { ...process.env, DATABASE_URL: database.url, ADMIN_TOKEN: adminToken } },
        (error, stdout, stderr) => (error === null ? done(stdout) : fail(new Error(stderr))),
      ),
    );
    assert.match(added.trim(), /^\d+$/);
    await within(1000, async () => (await titles(one.url)).includes('命令行发布'));
    await within(1000, async () => (await titles(two.url)).includes('命令行发布'));
  });
});

describe('PostgreSQL: the connection that listens for changes', { skip: dialect !== 'postgres' }, () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let client: pg.Client;
  before(async () => {
    database = await createTestDatabase();
    server = await spawnServer(testEnv(database));
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });
  after(async () => {
    await client?.end();
    await server?.stop();
    await database.drop();
  });

  const listeners = async () =>
    (
      await client.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN chat_site_content'`,
      )
    ).rows.map((row) => row.pid);

  const insert = (title: string) =>
    client.query(`INSERT INTO bulletins (title, content, pinned, created_at, updated_at) VALUES ($1, '', 0, $2, $2)`, [
      title,
      new Date().toISOString(),
    ]);

  test('a row written in psql reaches the cache; when the listener is cut, reads stay correct and it comes back', async () => {
    await within(5000, async () => (await listeners()).length === 1);
    await titles(server.url);
    await insert('直接写入一');
    await within(1000, async () => (await titles(server.url)).includes('直接写入一'));

    const [pid] = await listeners();
    await client.query('SELECT pg_terminate_backend($1)', [pid]);
    await insert('断开期间写入');
    // Nobody is listening now, so nothing may come from memory: the write is in the next read.
    await within(1000, async () => (await titles(server.url)).includes('断开期间写入'));
    await within(15_000, async () => {
      const now = await listeners();
      return now.length === 1 && now[0] !== pid;
    });
    assert.ok(server.logs.some((line) => line.includes('lost the database connection that listens')));
    await titles(server.url);
    await insert('恢复之后写入');
    await within(1000, async () => (await titles(server.url)).includes('恢复之后写入'));
  });
});

describe('the cache itself', () => {
  let app: FastifyInstance;
  let generation = 0;
  const changes: ContentChanges = {
    generation: () => generation,
    afterReads: (task) => task(),
    trustworthy: () => true,
    changed: () => void (generation += 1),
    nextChange: () => new Promise(() => {}),
    close: async () => {},
  };
  const cache = new ReadCache({ changes, maxBytes: 64 * 1024 });
  let produced = 0;
  let hold: Promise<void> = Promise.resolve();
  // Requests that have asked the cache, and produced answers, since the test reset the counts:
  // the test waits for them (counted) instead of for time.
  let asked = 0;
  let counted = () => {};
  const reached = (count: () => number, target: number) =>
    new Promise<void>((resolve) => {
      counted = () => {
        if (count() >= target) resolve();
      };
      counted();
    });

  before(async () => {
    app = Fastify();
    app.get<{ Querystring: { key: string; bytes?: string } }>('/item', async (request, reply) => {
      asked += 1;
      counted();
      return cache.send(request, reply, request.query.key, async () => {
        produced += 1;
        counted();
        await hold;
        return { key: request.query.key, fill: 'x'.repeat(Number(request.query.bytes ?? 100)) };
      });
    });
    await app.ready();
  });
  after(() => app.close());

  test('a burst of misses for one key produces it once', async () => {
    produced = 0;
    asked = 0;
    let release = () => {};
    hold = new Promise((resolve) => (release = resolve));
    const all = reached(() => asked, 20);
    const answers = Array.from({ length: 20 }, () => app.inject('/item?key=burst'));
    await all;
    release();
    for (const answer of await Promise.all(answers)) assert.equal(answer.statusCode, 200);
    assert.equal(produced, 1);
    await app.inject('/item?key=burst');
    assert.equal(produced, 1);
  });

  test('an answer read while content changed is used once, not kept', async () => {
    produced = 0;
    let release = () => {};
    hold = new Promise((resolve) => (release = resolve));
    const producing = reached(() => produced, 1);
    const answer = app.inject('/item?key=straddle');
    await producing;
    changes.changed();
    release();
    assert.equal((await answer).statusCode, 200);
    hold = Promise.resolve();
    await app.inject('/item?key=straddle');
    assert.equal(produced, 2);
    await app.inject('/item?key=straddle');
    assert.equal(produced, 2);
  });

  test('memory stays within its bound, the least recently used going first', async () => {
    for (let n = 0; n < 40; n++) {
      await app.inject({ url: `/item?key=k${n}&bytes=4000`, headers: { 'accept-encoding': 'br' } });
      assert.ok(cache.size <= 64 * 1024, `${cache.size} bytes held`);
    }
    produced = 0;
    await app.inject('/item?key=k39&bytes=4000');
    assert.equal(produced, 0, 'the newest is still held');
    await app.inject('/item?key=k0&bytes=4000');
    assert.equal(produced, 1, 'the oldest was dropped');
  });

  test('an answer read lately outlives older ones it was stored before', async () => {
    const lru = new ReadCache({ changes, maxBytes: 1024 * 1024, maxEntries: 10 });
    let made = 0;
    const small = Fastify();
    small.get<{ Querystring: { key: string } }>('/lru', async (request, reply) =>
      lru.send(request, reply, request.query.key, async () => ({ made: ++made })),
    );
    try {
      for (let n = 0; n < 10; n++) await small.inject(`/lru?key=a${n}`);
      // a0 is the oldest; read, it goes behind the other nine.
      await small.inject('/lru?key=a0');
      for (let n = 0; n < 3; n++) await small.inject(`/lru?key=b${n}`);
      made = 0;
      await small.inject('/lru?key=a0');
      assert.equal(made, 0, 'a0, read lately, is still held');
      await small.inject('/lru?key=a4');
      assert.equal(made, 0, 'a4 is still held');
      await small.inject('/lru?key=a1');
      assert.equal(made, 1, 'a1, the least recently used, was dropped');
      // Reads of an answer in the newer half keep it without moving it; many of them change nothing.
      for (let n = 0; n < 100; n++) await small.inject('/lru?key=a1');
      assert.equal(made, 1);
      assert.equal(lru.entries, 10);
    } finally {
      await small.close();
    }
  });

  test('tiny answers are counted with their keys and overhead, and their number is capped', async () => {
    const small = new ReadCache({ changes, maxBytes: 1024 * 1024, maxEntries: 50 });
    const tiny = Fastify();
    tiny.get<{ Querystring: { key: string } }>('/tiny', async (request, reply) =>
      small.send(request, reply, request.query.key, async () => ({ n: 1 })),
    );
    try {
      for (let n = 0; n < 20; n++) await tiny.inject(`/tiny?key=${'k'.repeat(100)}${n}`);
      assert.equal(small.entries, 20);
      // Seven bytes of JSON each, but what an entry really costs is counted.
      assert.ok(small.size >= 20 * (entryOverheadBytes + 200), `${small.size} bytes counted`);
      for (let n = 0; n < 500; n++) await tiny.inject(`/tiny?key=more${n}`);
      assert.equal(small.entries, 50, 'no more entries than maxEntries');
    } finally {
      await tiny.close();
    }
  });

  test('the preferred encoding honours q=0 and takes br over gzip', () => {
    assert.equal(preferredEncoding('gzip, deflate, br'), 'br');
    assert.equal(preferredEncoding('br;q=0, gzip'), 'gzip');
    assert.equal(preferredEncoding('BR;q=0.0,gzip;q=0'), undefined);
    assert.equal(preferredEncoding('identity'), undefined);
    assert.equal(preferredEncoding(undefined), undefined);
  });
});
