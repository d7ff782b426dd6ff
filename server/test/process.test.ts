/** The built server as a real process: start-up, bad settings, graceful stop, several servers. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import type { BulletinDetail, BulletinPage } from '@chat-site/contract';
import { adminToken, createTestDatabase, repoRoot, spawnServer, testEnv } from './helpers.js';
import { uploadAcrossStop } from './stopping.js';

describe('the server process', () => {
  test('first start on an empty database loads the demo content once, logs JSON lines', async () => {
    const database = await createTestDatabase();
    try {
      for (let start = 0; start < 2; start++) {
        const server = await spawnServer(testEnv(database, { DEMO_CONTENT: '1' }));
        const page = (await (await fetch(`${server.url}/v1/bulletin/page`)).json()) as BulletinPage;
        assert.equal(page.count, 12, 'a second start adds nothing');
        assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
        assert.equal(await server.stop(), 0);
        const requestLog = server.logs
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .find((l) => l.msg === 'request');
        assert.equal(requestLog?.url, '/v1/bulletin/page');
        assert.equal(requestLog?.status, 200);
      }
    } finally {
      await database.drop();
    }
  });

  test('four servers starting at once on one empty database all come up (migrations race safely)', async () => {
    const database = await createTestDatabase();
    try {
      const servers = await Promise.all([1, 2, 3, 4].map(() => spawnServer(testEnv(database, { DEMO_CONTENT: '1' }))));
      for (const server of servers) {
        const page = (await (await fetch(`${server.url}/v1/bulletin/page`)).json()) as BulletinPage;
        assert.equal(page.count, 12);
      }
      await Promise.all(servers.map((server) => server.stop()));
    } finally {
      await database.drop();
    }
  });

  test('eight processes migrating one empty database at the same moment all succeed', async () => {
    // Closer together than whole servers ever start, which is where SQLite's race was lost:
    // two processes both recorded one migration as done.
    const migrateOnce = `
      const { loadDatabaseTarget } = await import(${JSON.stringify(join(repoRoot, 'server/dist/config.js'))});
      const { connect } = await import(${JSON.stringify(join(repoRoot, 'server/dist/db/connect.js'))});
      const { migrate } = await import(${JSON.stringify(join(repoRoot, 'server/dist/db/migrations.js'))});
      const db = connect(loadDatabaseTarget());
      process.stdout.write('ready\\n');
      await new Promise((resolve) => process.stdin.once('end', resolve).resume());
      try { await migrate(db); } finally { await db.close(); }`;
    for (let round = 0; round < 3; round++) {
      const database = await createTestDatabase();
      try {
        // All start at once (their standard input ends), when every process has loaded and connected.
        const runs = Array.from({ length: 8 }, () => startNode(migrateOnce, { DATABASE_URL: database.url }));
        await Promise.all(runs.map((run) => run.ready));
        for (const run of runs) run.go();
        for (const { code, stderr } of await Promise.all(runs.map((run) => run.exited))) assert.equal(code, 0, stderr);
      } finally {
        await database.drop();
      }
    }
  });

  test('DEMO_CONTENT=0 leaves an empty database empty', async () => {
    const database = await createTestDatabase();
    try {
      const server = await spawnServer(testEnv(database, { DEMO_CONTENT: '0' }));
      const page = (await (await fetch(`${server.url}/v1/bulletin/page`)).json()) as BulletinPage;
      assert.deepEqual(page, { count: 0, list: [] });
      await server.stop();
    } finally {
      await database.drop();
    }
  });

  test('bad settings stop the server at once with exit code 2 and every problem named', () => {
    const result = spawnSync(process.execPath, [join(repoRoot, 'server/dist/server.js')], {
      env: {
        ...process.env,
        PORT: '99999',
        DATABASE_URL: 'mongodb://x',
        ADMIN_TOKEN: 'short',
        SITE_CONFIG: '/nope.json',
      },
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(result.status, 2);
    for (const name of ['PORT', 'DATABASE_URL', 'ADMIN_TOKEN', 'SITE_CONFIG'])
      assert.match(result.stderr, new RegExp(name));
  });

  test('on a Node.js older than 22.12 the server and the command line refuse to start, exit 2', () => {
    const pretend = pathToFileURL(join(repoRoot, 'server/test/fixtures/pretend-node-20.mjs')).href;
    for (const entry of ['server/dist/server.js', 'server/dist/admin.js']) {
      const result = spawnSync(process.execPath, ['--import', pretend, join(repoRoot, entry), '--help'], {
        env: { ...process.env, PORT: '0' },
        encoding: 'utf8',
        timeout: 20_000,
      });
      assert.equal(result.status, 2, entry);
      assert.match(result.stderr, /needs Node\.js 22\.12 or newer .* this is Node\.js 20\.20\.2/, entry);
    }
  });

  test('SIGTERM finishes a request in flight before the process exits', async () => {
    const database = await createTestDatabase();
    try {
      const server = await spawnServer(testEnv(database));
      const { status, body } = await uploadAcrossStop(server);
      assert.equal(status, 201, body);
      assert.equal(await server.exited, 0);
      assert.ok(server.logs.some((line) => line.includes('finishing requests in flight')));
      await assert.rejects(fetch(`${server.url}/v1/ping`), 'the port is closed after the stop');
    } finally {
      await database.drop();
    }
  });

  test('SIGTERM closes a kept-alive connection once its download in flight is complete, and exits 0', async () => {
    const database = await createTestDatabase();
    try {
      // Long enough that a stop kept waiting for the idle connection would end in exit code 1.
      const server = await spawnServer(testEnv(database, { SHUTDOWN_TIMEOUT_MS: '15000' }));
      const apk = Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(8 * 1024 * 1024)]);
      const uploaded = await fetch(`${server.url}/v1/admin/files?name=big.apk`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/octet-stream' },
        body: apk,
      });
      assert.equal(uploaded.status, 201);
      const { path } = (await uploaded.json()) as { path: string };
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      // A slow reader (a client on a slow link, its pace not the test's): the download is still
      // being sent when SIGTERM arrives, sent once its first bytes have come.
      let reading = () => {};
      const firstBytes = new Promise<void>((resolve) => (reading = resolve));
      const download = new Promise<{ bytes: number; connection: string | undefined; closedByServer: Promise<void> }>(
        (done, fail) => {
          const req = request(`${server.url}/v1/${path}`, { agent }, (res) => {
            let bytes = 0;
            res.on('data', (chunk: Buffer) => {
              bytes += chunk.byteLength;
              reading();
              res.pause();
              setTimeout(() => res.resume(), 5);
            });
            res.on('end', () => done({ bytes, connection: res.headers.connection, closedByServer }));
          });
          const closedByServer = new Promise<void>((closed) =>
            req.once('socket', (socket) => socket.once('end', () => closed())),
          );
          req.on('error', fail);
          req.end();
        },
      );
      await firstBytes;
      server.child.kill('SIGTERM');
      const { bytes, connection, closedByServer } = await download;
      assert.equal(bytes, apk.byteLength, 'the download in flight is finished');
      assert.equal(connection, 'keep-alive', 'its headers were sent before the stop');
      await closedByServer;
      assert.equal(await server.exited, 0);
      agent.destroy();
    } finally {
      await database.drop();
    }
  });

  test('SIGTERM: a request arriving on a connection still open gets 503 {status, msg} and Connection: close', async () => {
    const database = await createTestDatabase();
    try {
      const server = await spawnServer(testEnv(database, { SHUTDOWN_TIMEOUT_MS: '15000' }));
      const apk = Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(8 * 1024 * 1024)]);
      const uploaded = await fetch(`${server.url}/v1/admin/files?name=big.apk`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/octet-stream' },
        body: apk,
      });
      const { path } = (await uploaded.json()) as { path: string };
      const { port } = new URL(server.url);
      const socket = connect(Number(port), '127.0.0.1');
      const chunks: Buffer[] = [];
      const ended = new Promise<void>((done) => socket.once('end', done));
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.write(`GET /v1/${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      await new Promise<void>((done) => socket.once('data', () => done()));
      socket.pause(); // the download stays in flight
      server.child.kill('SIGTERM');
      await server.logged('finishing requests in flight');
      // The next request on the same connection, pipelined behind the download: on its way to
      // the server before the client reads on (the server reads it only once the download's
      // bytes drain).
      await new Promise<void>((done) => socket.write('GET /v1/ping HTTP/1.1\r\nHost: localhost\r\n\r\n', () => done()));
      socket.resume();
      await ended;
      const tail = Buffer.concat(chunks).subarray(-400).toString('latin1');
      assert.match(tail, /HTTP\/1\.1 503 Service Unavailable/);
      assert.match(tail, /\r\nconnection: close\r\n/i);
      assert.match(tail, /\{"status":503,"msg":"the server is stopping"\}$/);
      assert.equal(await server.exited, 0);
    } finally {
      await database.drop();
    }
  });

  test('two servers on one database serve the same content: publish through one, read through the other', async () => {
    const database = await createTestDatabase();
    try {
      const [first, second] = await Promise.all([
        spawnServer(testEnv(database, { DEMO_CONTENT: '1' })),
        spawnServer(testEnv(database, { DEMO_CONTENT: '1' })),
      ]);
      assert.ok(first && second);
      const pageOf = async (url: string) => (await (await fetch(`${url}/v1/bulletin/page`)).json()) as BulletinPage;
      assert.equal((await pageOf(second.url)).count, 12, 'the demo content was loaded exactly once');

      const published = await fetch(`${first.url}/v1/admin/bulletins`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: '双机发布测试', content: '<p>ok</p>', topup: 1 }),
      });
      assert.equal(published.status, 201);
      const { id } = (await published.json()) as { id: number };
      const detail = (await (await fetch(`${second.url}/v1/bulletin/detail?id=${id}`)).json()) as BulletinDetail;
      assert.equal(detail.Title, '双机发布测试');
      assert.equal((await pageOf(second.url)).list[0]?.id, id);

      await fetch(`${second.url}/v1/admin/bulletins/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${adminToken}` },
      });
      assert.equal((await fetch(`${first.url}/v1/bulletin/detail?id=${id}`)).status, 404);
      await Promise.all([first.stop(), second.stop()]);
    } finally {
      await database.drop();
    }
  });
});

/** Runs a module snippet in a fresh Node process; resolves with its exit code and error output. */
/** Runs `source` in a node process of its own, which says on its standard output when it is
 * ready; `go` ends its standard input. */
function startNode(
  source: string,
  env: Record<string, string>,
): { ready: Promise<void>; go(): void; exited: Promise<{ code: number | null; stderr: string }> } {
  const child = spawn(process.execPath, ['--input-type=module', '--eval', source], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; stderr: string }>((done) =>
    child.once('close', (code) => done({ code, stderr })),
  );
  const ready = new Promise<void>((done, fail) => {
    child.stdout.once('data', () => done());
    void exited.then(({ code }) => fail(new Error(`exited with ${code} before it was ready:\n${stderr}`)));
  });
  child.stdout.resume();
  return { ready, go: () => child.stdin.end(), exited };
}
