/**
 * Two built servers on one PostgreSQL database and one file store, behind Debian's nginx running
 * deploy/nginx.conf (through scripts/deploy-check.sh nginx): what is published through one is
 * served by both, a file uploaded through one downloads through the other, a server can stop,
 * be killed and come back while visitors notice nothing, and the address the servers log and
 * limit is the visitor's. See docs/scaling.md#several-servers-on-one-postgresql and
 * #run-behind-a-proxy. Needs `npm run build` first; uses TEST_POSTGRES_URL when set.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { BulletinDetail } from '@chat-site/contract';
import { freePorts } from '../../testing/free-port.js';
import { spawnServer, type ServerProcess } from '../../testing/spawn-server.js';
import { createDatabase, type TestDatabase } from '../../testing/test-database.js';
import {
  call,
  ensureNginx,
  fakeApk,
  nginxErrors,
  repoRoot,
  sha256,
  startNginx,
  waitFor,
  type Running,
} from './support.js';

const adminToken = 'scale-out-admin-token-0123456789abcdef';
const bearer = { authorization: `Bearer ${adminToken}` };

let database: TestDatabase;
let filesDir: string;
let ports: { a: number; b: number };
const servers: { a?: ServerProcess; b?: ServerProcess } = {};
let nginx: Running & { dir: string };

function startSite(name: 'a' | 'b'): Promise<ServerProcess> {
  return spawnServer({
    PORT: String(ports[name]),
    DATABASE_URL: database.url,
    // One directory both servers use: the shared disk of docs/storage.md.
    STORAGE_URL: `file:${filesDir}`,
    ADMIN_TOKEN: adminToken,
    ADMIN_MAX_FAILURES: '3',
    TRUST_PROXY: '1',
    DEMO_CONTENT: '0',
    SITE_CONFIG: join(repoRoot, 'site.config.json'),
  });
}

const site = (name: 'a' | 'b'): ServerProcess => {
  const server = servers[name];
  assert.ok(server !== undefined, `server ${name} runs`);
  return server;
};

/** The request log lines a server wrote for `url` (one JSON line per request). */
function requestsFor(server: ServerProcess, match: (url: string) => boolean): { ip: string; status: number }[] {
  return server.logs
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as { url: string; ip: string; status: number })
    .filter((entry) => match(entry.url));
}

before(async () => {
  assert.ok(ensureNginx(), 'Debian nginx is installed (scripts/ensure-nginx.sh)');
  database = await createDatabase({ dialect: 'postgres', prefix: 'deploy' });
  filesDir = mkdtempSync(join(tmpdir(), 'chat-site-shared-files-'));
  ports = await freePorts(['a', 'b']);
  // One at a time: the first runs the migrations alone, so the start is the same every run.
  servers.a = await startSite('a');
  servers.b = await startSite('b');
  nginx = await startNginx([`127.0.0.1:${ports.a}`, `127.0.0.1:${ports.b}`]);
});

after(async () => {
  await nginx?.stop();
  await Promise.all([servers.a?.stop(), servers.b?.stop()]);
  await database?.drop();
  rmSync(filesDir, { recursive: true, force: true });
});

describe('two servers behind nginx (deploy/nginx.conf) on one PostgreSQL', () => {
  test('an announcement published through server A is served at once by A, B and nginx', async () => {
    const published = await call(`${site('a').url}/v1/admin/bulletins`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ title: '双机发布', content: '<p>scale out</p>', topup: 1 }),
    });
    assert.equal(published.status, 201, published.body.toString());
    const { id } = JSON.parse(published.body.toString()) as { id: number };
    // Through nginx several times: round robin reaches both servers.
    const origins = [site('a').url, site('b').url, nginx.url, nginx.url, nginx.url, nginx.url];
    const answers = await Promise.all(origins.map((origin) => call(`${origin}/v1/bulletin/detail?id=${id}`)));
    for (const answer of answers) {
      assert.equal(answer.status, 200);
      assert.equal((JSON.parse(answer.body.toString()) as BulletinDetail).Title, '双机发布');
    }
    const viaNginx = (server: ServerProcess) =>
      requestsFor(server, (url) => url === `/v1/bulletin/detail?id=${id}`).length;
    // A request's log line is written once its answer has gone.
    await waitFor('the request log lines', () => viaNginx(site('a')) + viaNginx(site('b')) === origins.length);
    assert.ok(viaNginx(site('a')) >= 2 && viaNginx(site('b')) >= 2, 'nginx sent the reads to both servers');
  });

  test('a package uploaded through server A downloads through B and through nginx, same SHA-256', async () => {
    const apk = fakeApk(4 * 1024 * 1024);
    const uploaded = await call(`${site('a').url}/v1/admin/files?name=shared.apk`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/vnd.android.package-archive' },
      body: apk,
    });
    assert.equal(uploaded.status, 201, uploaded.body.toString());
    const { path, sha256: stored } = JSON.parse(uploaded.body.toString()) as { path: string; sha256: string };
    assert.equal(stored, sha256(apk));
    for (const origin of [site('b').url, nginx.url, nginx.url]) {
      const download = await call(`${origin}/v1/${path}`);
      assert.equal(download.status, 200);
      assert.equal(sha256(download.body), stored, `${origin} sends the same bytes`);
    }
  });

  test('the address the servers log and limit is the visitor’s, whatever X-Forwarded-For it sends', async () => {
    // The visitor is 127.0.0.2; nginx reaches the servers from 127.0.0.1.
    const visitor = '127.0.0.2';
    const forged = { 'x-forwarded-for': '203.0.113.7' };
    const marker = `/v1/ping?who=${Date.now()}`;
    assert.equal((await call(`${nginx.url}${marker}`, { localAddress: visitor, headers: forged })).status, 200);
    const logged = () => [
      ...requestsFor(site('a'), (url) => url === marker),
      ...requestsFor(site('b'), (url) => url === marker),
    ];
    // A request's log line is written once its answer has gone.
    await waitFor('the request log line', () => logged().length > 0);
    assert.deepEqual(
      logged().map((entry) => entry.ip),
      [visitor],
    );

    // Wrong tokens, each with another forged address: the limit still counts them against the
    // visitor on each server (ADMIN_MAX_FAILURES=3 per server; round robin gives each four).
    for (let attempt = 0; attempt < 8; attempt++) {
      const wrong = await call(`${nginx.url}/v1/admin/files`, {
        localAddress: visitor,
        headers: { authorization: 'Bearer wrong-token', 'x-forwarded-for': `198.51.100.${attempt}` },
      });
      assert.ok([401, 429].includes(wrong.status), `wrong token answered ${wrong.status}`);
    }
    for (let attempt = 0; attempt < 2; attempt++) {
      const locked = await call(`${nginx.url}/v1/admin/files`, {
        localAddress: visitor,
        headers: { ...bearer, 'x-forwarded-for': '192.0.2.1' },
      });
      assert.equal(locked.status, 429, 'the visitor is locked out, even with the right token');
    }
    // Another visitor, and nginx's own address, are not.
    const other = await call(`${nginx.url}/v1/admin/files`, { localAddress: '127.0.0.3', headers: bearer });
    assert.equal(other.status, 200);
    assert.equal((await call(`${site('a').url}/v1/admin/files`, { headers: bearer })).status, 200);
    assert.equal((await call(`${site('b').url}/v1/admin/files`, { headers: bearer })).status, 200);
  });

  test('a server stopped (SIGTERM) and another killed (SIGKILL) under load: no failed request, no broken download', async () => {
    const apk = fakeApk(6 * 1024 * 1024);
    const uploaded = await call(`${site('a').url}/v1/admin/files?name=load.apk`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/octet-stream' },
      body: apk,
    });
    assert.equal(uploaded.status, 201);
    const { path } = JSON.parse(uploaded.body.toString()) as { path: string };
    const load = startLoad(nginx.url, `/v1/${path}`, sha256(apk), apk.byteLength);
    let finishedByStoppingA: number | undefined;

    const rejoined = async (name: 'a' | 'b') => {
      const seen = requestsFor(site(name), () => true).length;
      await waitFor(
        `server ${name} to get requests from nginx again`,
        () => requestsFor(site(name), () => true).length > seen + 5,
      );
    };
    // Each phase lasts for a number of requests through nginx, not for a time: on a loaded machine
    // a second may see none.
    const goneOn = async (requests: number) => {
      const from = load.settled();
      await waitFor(`${requests} more requests through nginx`, () => load.settled() >= from + requests, 60_000);
    };
    try {
      await goneOn(40);
      load.phase = 'sigterm';
      const stopping = site('a');
      assert.equal(await stopping.stop('SIGTERM'), 0, 'A stopped gracefully');
      // Downloads A was sending when the stop began and finished before exiting (for the report:
      // whether nginx gave A one at that moment is chance; server/test/process.test.ts checks it).
      const stopLine = stopping.logs.findIndex((line) => line.includes('finishing requests in flight'));
      finishedByStoppingA = stopping.logs
        .slice(stopLine)
        .filter((line) => line.includes('"msg":"request"') && line.includes(path)).length;
      await goneOn(40);
      load.phase = 'restarting';
      servers.a = await startSite('a');
      await rejoined('a');

      load.phase = 'sigkill';
      await site('b').stop('SIGKILL');
      await goneOn(40);
      load.phase = 'restarting';
      servers.b = await startSite('b');
      await rejoined('b');
      load.phase = 'both';
      await goneOn(20);
    } finally {
      await load.stop();
    }
    const report = load.report();
    console.log(`load through nginx: ${JSON.stringify({ ...report, finishedByStoppingA })}`);
    assert.deepEqual(report.failures, [], nginxErrors(nginx));
    assert.ok(report.reads > 200, 'the load ran');
    assert.ok(report.downloads >= 6, 'packages were downloaded throughout');
    assert.deepEqual(report.corrupt, [], 'every download ends with the right SHA-256');
    // A download the killed server was sending is cut (nothing can finish it); the visitor's
    // download manager resumes it with a range, which the test does, through nginx.
    assert.ok(
      report.cut.every((phase) => phase === 'sigkill'),
      `downloads were cut only by the SIGKILL: ${report.cut.join(', ')}`,
    );
    assert.ok(requestsFor(site('a'), () => true).length > 0 && requestsFor(site('b'), () => true).length > 0);
  });
});

interface Load {
  phase: string;
  stop(): Promise<void>;
  report(): { reads: number; downloads: number; failures: string[]; corrupt: string[]; cut: string[] };
  /** Requests answered or failed so far, reads and downloads together. */
  settled(): number;
}

/** Readers and downloaders through nginx with keep-alive connections, until stopped. */
function startLoad(base: string, downloadPath: string, expectedSha: string, size: number): Load {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const paths = ['/v1/bulletin/page', '/', '/v1/common/getInstallPackageAddrs', '/v1/ping', '/robots.txt'];
  let running = true;
  let reads = 0;
  let downloads = 0;
  const failures: string[] = [];
  const corrupt: string[] = [];
  const cut: string[] = [];
  const load: Load = {
    phase: 'both',
    stop: async () => {
      running = false;
      await Promise.all(workers);
      agent.destroy();
    },
    report: () => ({ reads, downloads, failures, corrupt, cut }),
    settled: () => reads + downloads + failures.length,
  };

  const reader = async (offset: number) => {
    for (let n = offset; running; n++) {
      const path = paths[n % paths.length] ?? '/';
      try {
        const answer = await call(`${base}${path}`, { agent });
        if (answer.status !== 200) failures.push(`${load.phase}: ${path} answered ${answer.status}`);
        reads += 1;
      } catch (error) {
        failures.push(`${load.phase}: ${path} failed: ${(error as Error).message}`);
      }
    }
  };

  /** One download, resumed with a Range from where it was cut, as a download manager does. */
  const download = async () => {
    const parts: Buffer[] = [];
    let received = 0;
    for (let attempt = 0; attempt < 3 && received < size; attempt++) {
      const range: { range?: string } = received === 0 ? {} : { range: `bytes=${received}-` };
      const outcome = await fetchPart(`${base}${downloadPath}`, agent, range, (chunk) => {
        parts.push(chunk);
        received += chunk.byteLength;
      });
      const expected = range.range === undefined ? 200 : 206;
      if (outcome.status !== expected) {
        failures.push(`${load.phase}: download answered ${outcome.status}, not ${expected}`);
        return;
      }
      if (!outcome.complete) cut.push(load.phase);
    }
    const bytes = Buffer.concat(parts);
    if (bytes.byteLength !== size || sha256(bytes) !== expectedSha)
      corrupt.push(`${load.phase}: ${bytes.byteLength} bytes`);
    downloads += 1;
  };
  const downloader = async () => {
    while (running) await download();
  };

  const workers = [0, 1, 2, 3, 4, 5].map((offset) => reader(offset)).concat([downloader(), downloader(), downloader()]);
  return load;
}

/** A GET whose body goes to `onChunk`; `complete` is false when the connection was cut short. */
function fetchPart(
  url: string,
  agent: Agent,
  headers: { range?: string },
  onChunk: (chunk: Buffer) => void,
): Promise<{ status: number; complete: boolean }> {
  return new Promise((done) => {
    const req = request(url, { agent, headers }, (res) => {
      const expected = Number(res.headers['content-length']);
      let got = 0;
      res.on('data', (chunk: Buffer) => {
        got += chunk.byteLength;
        onChunk(chunk);
        // A visitor on a slower link: each download takes about a second, so that some are
        // always in flight when a server stops or dies.
        res.pause();
        setTimeout(() => res.resume(), 8);
      });
      res.on('close', () => done({ status: res.statusCode ?? 0, complete: got === expected }));
    });
    req.on('error', () => done({ status: 0, complete: false }));
    req.end();
  });
}
