/**
 * The built server with WORKERS=2: a supervisor and two workers on one port, each with its own
 * read cache. Which worker answers is read from the request log lines (their pid); each read
 * opens a connection of its own, which either worker may accept (worker-logs.ts). Runs on
 * SQLite, and on PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { BulletinPage } from '@chat-site/contract';
import { sql } from 'kysely';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  bearer,
  createTestDatabase,
  repoRoot,
  spawnServer,
  testEnv,
  type ServerProcess,
  type TestDatabase,
} from './helpers.js';
import { uploadAcrossStop } from './stopping.js';
import { askEveryWorker, getAlone, lines, logged, loggedAfter } from './worker-logs.js';
import { loadConfig } from '../src/config.js';
import { connect } from '../src/db/connect.js';
import { knownMigrations } from '../src/db/migrations.js';
import { workerEnv, workerExecArgv, workersAccept } from '../src/cluster/supervisor.js';

let readsMade = 0;

/**
 * The first page of `size`, read on connections of its own at least `reads` times and until both
 * workers have answered (askEveryWorker, at most 200 reads); answers the counts, first titles and
 * the pids that served them. Each URL carries a number of its own (a parameter the route ignores),
 * so that each read has its own log line.
 */
async function readPages(server: ServerProcess, size: number, reads: number) {
  const path = () => `/v1/bulletin/page?page_index=1&page_size=${size}&read=${++readsMade}`;
  const answers = await askEveryWorker(server, path, { atLeast: reads, limit: 200 });
  return answers.map(({ status, body, pid }) => {
    assert.equal(status, 200);
    const page = JSON.parse(body) as BulletinPage;
    return { count: page.count, firstTitle: page.list[0]?.title, pid };
  });
}

async function publish(url: string, title: string): Promise<number> {
  const response = await fetch(`${url}/v1/admin/bulletins`, {
    method: 'POST',
    headers: { ...bearer, 'content-type': 'application/json' },
    body: JSON.stringify({ title, content: `<p>${title}</p>`, topup: 1 }),
  });
  assert.equal(response.status, 201);
  return ((await response.json()) as { id: number }).id;
}

const workerPids = (server: ServerProcess) =>
  lines(server)
    .filter((line) => line.msg === 'worker listening')
    .map((line) => line.pid);

/** Which of `pids` hold the socket listening on `port` (from /proc/net/tcp and tcp6, whose lines
 * give each socket's state and inode, and each process's open files). A process that accepts the
 * connections holds it; under node:cluster's round-robin only the supervisor does. */
function listeningHolders(port: number, pids: number[]): number[] {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const row of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const [, local = '', , state, , , , , , inode = ''] = row.trim().split(/\s+/);
      if (state === '0A' && Number.parseInt(local.split(':').at(-1) ?? '', 16) === port) inodes.add(inode);
    }
  }
  assert.ok(inodes.size > 0, `a socket listens on port ${port}`);
  const holds = (pid: number) =>
    readdirSync(`/proc/${pid}/fd`).some((fd) => {
      const target = /^socket:\[(\d+)\]$/.exec(readlinkSafe(`/proc/${pid}/fd/${fd}`))?.[1];
      return target !== undefined && inodes.has(target);
    });
  return pids.filter(holds);
}

function readlinkSafe(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return ''; // closed since the directory was read
  }
}

const metricsToken = 'cluster-metrics-token-0123456789abcdefgh';

describe('WORKERS=2', () => {
  let database: TestDatabase;
  let server: ServerProcess;
  before(async () => {
    database = await createTestDatabase();
    server = await spawnServer(testEnv(database, { WORKERS: '2', DEMO_CONTENT: '1', METRICS_TOKEN: metricsToken }));
  });
  after(async () => {
    await server?.stop();
    await database.drop();
  });

  test('two workers serve; migrations, demo content and the start-up hint happen once', async () => {
    const answers = await readPages(server, 15, 6);
    assert.ok(answers.every((answer) => answer.count === 12));
    const pids = new Set(answers.map((answer) => answer.pid));
    assert.ok(!pids.has(server.child.pid ?? 0), 'the supervisor answers nothing itself');
    const once = (msg: string) => lines(server).filter((line) => line.msg.startsWith(msg)).length;
    assert.equal(once('loaded demo content'), 1);
    assert.equal(once('no operator accounts yet'), 1);
    assert.equal(once('serving on'), 1);
  });

  test('the workers accept connections themselves; the supervisor only holds the socket', () => {
    const processes = [server.child.pid ?? 0, ...workerPids(server)];
    assert.deepEqual(listeningHolders(Number(new URL(server.url).port), processes), processes);
  });

  test('the supervisor holds none of the app: no database driver, no web framework', () => {
    const supervisor = server.child.pid ?? 0;
    const [worker = 0] = workerPids(server);
    const sqliteDriver = /better_sqlite3|better-sqlite3\/prebuilds/;
    const mapped = (pid: number) => readFileSync(`/proc/${pid}/maps`, 'utf8');
    if (database.url.startsWith('sqlite:')) assert.match(mapped(worker), sqliteDriver, 'a worker has the driver');
    assert.doesNotMatch(mapped(supervisor), sqliteDriver, 'the supervisor does not');
    // Its own memory (heap and stacks, not the shared binary) is a fraction of a worker's.
    const own = (pid: number) => Number(/^RssAnon:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    assert.ok(own(supervisor) * 3 < own(worker), `supervisor ${own(supervisor)} kB, worker ${own(worker)} kB`);
  });

  test('workers start with a full-size young generation; the supervisor does not', async () => {
    const pids = workerPids(server);
    assert.equal(pids.length, 2);
    const argv = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    for (const pid of pids) {
      assert.ok(argv(pid).includes('--min-semi-space-size=16'), `worker ${pid}: ${argv(pid).join(' ')}`);
      assert.ok(argv(pid).includes('--max-semi-space-size=16'), `worker ${pid}: ${argv(pid).join(' ')}`);
    }
    assert.ok(!argv(server.child.pid ?? 0).includes('--min-semi-space-size=16'));
  });

  test('a scrape of /metrics through either worker counts the requests of both', async () => {
    const pageCount = async () => {
      const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
      assert.equal(res.status, 200);
      const text = await res.text();
      const line = text
        .split('\n')
        .find(
          (entry) =>
            entry.startsWith('http_request_duration_seconds_count{') && entry.includes('route="/v1/bulletin/page"'),
        );
      return Number(line?.split(' ').pop() ?? 0);
    };
    const before = await pageCount();
    const answers = await readPages(server, 40, 6);
    assert.equal((await pageCount()) - before, answers.length, 'every read, whichever worker answered it');
  });

  test('a write through one worker is in the very next read of every worker', async () => {
    // Both caches hold the page and the detail first.
    await readPages(server, 20, 4);
    for (let round = 1; round <= 3; round++) {
      const title = `第 ${round} 次写入`;
      const id = await publish(server.url, title);
      const answers = await readPages(server, 20, 4);
      for (const answer of answers) assert.equal(answer.firstTitle, title, `worker ${answer.pid} has the write`);
      const removed = await fetch(`${server.url}/v1/admin/bulletins/${id}`, { method: 'DELETE', headers: bearer });
      assert.equal(removed.status, 204);
      for (let n = 0; n < 4; n++)
        assert.equal((await getAlone(`${server.url}/v1/bulletin/detail?id=${id}`)).status, 404);
    }
  });

  test('a worker that dies is replaced, and the server serves on meanwhile', async () => {
    const [victim] = workerPids(server);
    assert.ok(victim !== undefined);
    const before = workerPids(server).length;
    process.kill(victim, 'SIGKILL');
    await logged(server, (line) => line.msg === 'a worker died; starting another');
    assert.equal((await getAlone(`${server.url}/healthz`)).status, 200, 'the other worker answers');
    await logged(server, () => workerPids(server).length > before);
    // Reading goes on until two workers have answered: the survivor and the new one.
    const answers = await readPages(server, 46, 4);
    assert.ok(!answers.some((answer) => answer.pid === victim));
  });

  test('SIGHUP replaces the workers one by one without a failed request', async () => {
    const old = new Set(workerPids(server));
    let failures = 0;
    let answered = 0;
    const errors = new Set<string>();
    let running = true;
    // The clients' answers, counted: the test waits for more of them, not for time.
    let counted = () => {};
    const answeredReach = (target: number) =>
      new Promise<void>((resolve) => {
        counted = () => {
          if (answered + failures >= target) resolve();
        };
        counted();
      });
    const clients = Array.from({ length: 4 }, async () => {
      while (running) {
        try {
          const response = await fetch(`${server.url}/v1/bulletin/page`);
          if (response.status === 200) answered++;
          else failures++;
          counted();
          await response.arrayBuffer();
        } catch (error) {
          failures++;
          errors.add(String((error as Error).cause ?? error));
          counted();
          await new Promise((wait) => setTimeout(wait, 10)); // no busy loop when every request fails
        }
      }
    });
    // Requests are flowing before the signal, and flow on to the new workers after the change.
    await answeredReach(20);
    const logsBefore = server.logs.length;
    const listenedBefore = new Set(
      lines({ logs: server.logs.slice(0, logsBefore) })
        .filter((line) => line.msg === 'worker listening')
        .map((line) => line.pid),
    );
    server.child.kill('SIGHUP');
    await logged(server, (line) => line.msg === 'workers replaced', 60_000);
    // Each new worker writes its own line, on a pipe of its own: it may come after the
    // supervisor's, so the test waits for both.
    const fresh = new Set<number>();
    await logged(
      server,
      (line) => {
        if (line.msg === 'worker listening' && !listenedBefore.has(line.pid)) fresh.add(line.pid);
        return fresh.size === 2;
      },
      60_000,
    );
    await answeredReach(answered + failures + 20);
    running = false;
    await Promise.all(clients);
    assert.equal(failures, 0, `${failures} of ${answered + failures} requests failed: ${[...errors].join('; ')}`);
    assert.ok(
      [...fresh].every((pid) => !old.has(pid)),
      'both workers are new',
    );
    const listening = lines({ logs: server.logs.slice(logsBefore) }).filter((line) => line.msg === 'worker listening');
    assert.equal(listening.length, 2, 'two workers, no more, started');
  });

  test('SIGHUP runs the migrations of the build on disk first; when that fails the workers stay', async () => {
    const db = connect(loadConfig(testEnv(database)).database);
    const migrated = async () =>
      (await sql<{ name: string }>`select name from kysely_migration`.execute(db.kysely)).rows.map(({ name }) => name);
    try {
      // The database has had a migration this build does not know, as if a newer build had run.
      const newer = '9999_from_a_newer_build';
      await sql`insert into kysely_migration (name, timestamp) values (${newer}, ${new Date().toISOString()})`.execute(
        db.kysely,
      );
      let from = server.logs.length;
      server.child.kill('SIGHUP');
      const refused = await loggedAfter(server, from, (line) =>
        line.msg.startsWith('the database could not be prepared'),
      );
      const reason = await loggedAfter(server, from, (line) =>
        line.msg.includes(`migration ${newer}, which this build does not know`),
      );
      // The server goes on: the preparing child does not say it failed to start.
      assert.match(reason.msg, /^New workers not started: /);
      const started = lines({ logs: server.logs.slice(from) }).filter((line) => line.msg === 'worker listening');
      assert.deepEqual(started, [], 'no new worker started');
      assert.equal((await getAlone(`${server.url}/healthz`)).status, 200, 'the workers still serve');
      assert.equal(refused.pid, server.child.pid, 'the supervisor says so');
      await sql`delete from kysely_migration where name = ${newer}`.execute(db.kysely);

      // A build whose newest migration the database has not had yet.
      const newest = knownMigrations.at(-1) ?? '';
      await sql`delete from kysely_migration where name = ${newest}`.execute(db.kysely);
      from = server.logs.length;
      server.child.kill('SIGHUP');
      await loggedAfter(server, from, (line) => line.msg === 'workers replaced', 60_000);
      assert.ok((await migrated()).includes(newest), `${newest} ran before the workers were replaced`);
      assert.equal((await getAlone(`${server.url}/healthz`)).status, 200);
    } finally {
      await db.close();
    }
  });
});

describe('WORKERS=2 stopping', () => {
  test('SIGTERM to the supervisor finishes a request in flight, stops the workers and exits 0', async () => {
    const database = await createTestDatabase();
    try {
      const server = await spawnServer(testEnv(database, { WORKERS: '2' }));
      const { status, body } = await uploadAcrossStop(server);
      assert.equal(status, 201, body);
      assert.equal(await server.exited, 0);
      const stopped = lines(server).filter((line) => line.msg === 'stopped');
      assert.equal(stopped.length, 3, 'both workers and the supervisor stopped cleanly');
      await assert.rejects(fetch(`${server.url}/v1/ping`), 'the port is closed after the stop');
    } finally {
      await database.drop();
    }
  });
});

describe('WORKERS=2 stopped while starting', () => {
  test('SIGTERM while a worker is still starting is a clean stop: exit 0', async () => {
    const database = await createTestDatabase();
    try {
      const hold = pathToFileURL(join(repoRoot, 'server/test/fixtures/hold-second-worker.mjs')).href;
      // quiet: ready once /healthz answers, which the first worker does while the second is held.
      const server = await spawnServer(testEnv(database, { WORKERS: '2' }), {
        quiet: true,
        nodeArgs: ['--import', hold],
      });
      assert.equal(await server.stop('SIGTERM'), 0, server.logs.join('\n'));
    } finally {
      await database.drop();
    }
  });
});

describe('the Node options and environment of a worker', () => {
  const young = ['--min-semi-space-size=16', '--max-semi-space-size=16'];
  const compiling = ['--no-concurrent-recompilation'];
  test('add a young generation of a fixed 16 MB unless the operator chose a size', () => {
    assert.deepEqual(workerExecArgv([]), [...young, ...compiling]);
    assert.deepEqual(workerExecArgv(['--enable-source-maps']), ['--enable-source-maps', ...young, ...compiling]);
    assert.deepEqual(workerExecArgv(['--max-semi-space-size=64']), ['--max-semi-space-size=64', ...compiling]);
    assert.deepEqual(workerExecArgv([], '--min-semi-space-size=4 --max-old-space-size=512'), compiling);
  });
  test('fix glibc’s mmap threshold unless the operator set any of glibc’s malloc settings', () => {
    assert.deepEqual(workerEnv({ PATH: '/usr/bin' }), { MALLOC_MMAP_THRESHOLD_: '131072' });
    assert.deepEqual(workerEnv({ MALLOC_MMAP_THRESHOLD_: '65536' }), {});
    assert.deepEqual(workerEnv({ MALLOC_ARENA_MAX: '2' }), {});
    assert.deepEqual(workerEnv({ GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=0' }), {});
  });
  test('accept connections in the workers unless the operator chose node:cluster’s policy', () => {
    assert.equal(workersAccept({}), true);
    assert.equal(workersAccept({ NODE_CLUSTER_SCHED_POLICY: 'rr' }), false);
    assert.equal(workersAccept({ NODE_CLUSTER_SCHED_POLICY: 'none' }), false);
  });
  test('compile on the worker’s own thread unless the operator said otherwise', () => {
    assert.deepEqual(workerExecArgv(['--concurrent-recompilation']), ['--concurrent-recompilation', ...young]);
    assert.deepEqual(workerExecArgv(['--no-concurrent-recompilation']), ['--no-concurrent-recompilation', ...young]);
  });
});
