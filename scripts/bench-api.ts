/**
 * `npm run bench:api`: the public reads of the built server against two references, all measured
 * in one run with the same bytes and the same load generator (wrk, BENCH_THREADS threads,
 * BENCH_CONNECTIONS connections, BENCH_SECONDS seconds; default -t2 -c64 -d8s):
 * - Debian's nginx serving the bytes as static files, one nginx worker per core;
 * - Node's bare `http` module serving them from a buffer, in one process and in one process per
 *   core (scripts/bench-api-server.ts);
 * - the server with WORKERS=1 (one process) and with WORKERS=<cores>, on one SQLite file with 50
 *   published announcements, logging only warnings;
 * - both as shipped: nginx as Debian configures it (access log, 1,000 requests a connection) and
 *   the server with WORKERS=<cores> at its defaults (a log line per request, into a file).
 * Targets: /v1/bulletin/detail (one announcement) and /v1/bulletin/page (the first 15), without
 * Accept-Encoding, as wrk asks: the bytes are those the server answers, written to files for
 * nginx and Node, and checked (SHA-256) on every subject before it is measured.
 *
 * Each round measures every subject on every target, the order of the subjects turned each round
 * so that drift on a shared machine hits all of them, each run after BENCH_WARMUP_SECONDS (2) of
 * the same load; reported is the median over BENCH_ROUNDS
 * (default 3) rounds, with the load average at the start of each run. Ratios: one worker / bare
 * Node, every core / nginx, and as shipped / nginx as Debian ships it. Goals: the first two at
 * least 0.5, the third at least 0.65, and p99 under 20 ms with every core, as tuned and as shipped.
 * Also printed, with no goal: bare Node on every core / nginx as Debian ships it (the most a Node
 * server could reach) and the server as shipped / bare Node on every core.
 * Results also go to .tmp/bench-api.json, or to the file BENCH_RESULTS names. Exits 1 when a goal
 * is missed or a run saw errors. nginx and wrk are installed by scripts/ensure-nginx.sh when
 * missing. BENCH_SERVER names another build's server.js to measure (an older commit's, say).
 * BENCH_NEW_CONNECTIONS=1 makes every request open a connection of its own (`Connection: close`),
 * as clients that keep none open do; it reports the same figures, with no goals.
 * See docs/performance.md#npm-run-benchapi.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  intFromEnv,
  machineFacts,
  publishAnnouncements,
  round,
  startBenchServer,
  startNginx,
  writeResults,
  wrk,
  wrkOptions,
  type WrkRun,
} from './bench-support.js';
import { freePort } from '../testing/free-port.js';
import { spawnGroup } from '../testing/process-group.js';
import { repoRoot } from '../testing/repo-root.js';

const load = {
  threads: intFromEnv('BENCH_THREADS', 2, 1, 64),
  connections: intFromEnv('BENCH_CONNECTIONS', 64, 1, 10_000),
  seconds: intFromEnv('BENCH_SECONDS', 8, 1, 600),
  // Every request on a connection of its own, as clients that do not keep theirs open. The goals
  // are the keep-alive load's; this only reports.
  newConnections: process.env.BENCH_NEW_CONNECTIONS === '1',
};
const rounds = intFromEnv('BENCH_ROUNDS', 3, 1, 20);
const warmupSeconds = intFromEnv('BENCH_WARMUP_SECONDS', 2, 0, 60);
const cores = availableParallelism();
const goals = {
  oneWorkerOfNode: 0.5,
  allCoresOfNginx: 0.5,
  allCoresP99Ms: 20,
  shippedOfDebianNginx: 0.65,
  shippedP99Ms: 20,
};
/** Another build of the server to measure, e.g. an older commit's, for a before and after. */
const serverScript = process.env.BENCH_SERVER || 'server/dist/server.js';

const ensured = spawnSync('bash', [join(repoRoot, 'scripts/ensure-nginx.sh')], { stdio: 'inherit' });
if (ensured.status !== 0) process.exit(1);

const machine = machineFacts();
console.log(
  `bench:api: wrk -t${load.threads} -c${load.connections} -d${load.seconds}s, ${rounds} round(s); Node ` +
    `${machine.node}, ${machine.cpus} core(s) (${machine.cpuModel}) shared by wrk and the subjects; ` +
    `load average now ${machine.loadAverageAtStart.join(' ')}`,
);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The bytes `url` answers without Accept-Encoding, as wrk asks. */
async function bytesOf(url: string): Promise<Buffer> {
  const response = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

const dir = mkdtempSync(join(tmpdir(), 'chat-site-bench-api-'));
// nginx's workers run as nobody when started by root: they must be able to reach the files.
chmodSync(dir, 0o755);
mkdirSync(join(dir, 'www'));
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));

const one = await startBenchServer([], serverScript, { WORKERS: '1' });
const stops: (() => Promise<unknown>)[] = [() => one.stop()];
let exitCode = 1;
try {
  const { ids } = await publishAnnouncements(one.url, one.adminToken, 50);
  const targets = [
    { name: 'bulletin/detail', path: `/v1/bulletin/detail?id=${ids[Math.floor(ids.length / 2)]}`, file: 'detail' },
    { name: 'bulletin/page', path: '/v1/bulletin/page?page_index=1&page_size=15', file: 'page' },
  ].map((target) => ({ ...target, bytes: Buffer.alloc(0) as Buffer }));
  for (const target of targets) {
    target.bytes = await bytesOf(`${one.url}${target.path}`);
    writeFileSync(join(dir, 'www', target.file), target.bytes);
  }

  const all = await startBenchServer([], serverScript, {
    WORKERS: String(cores),
    DATABASE_URL: `sqlite:${one.databasePath}`,
  });
  stops.push(() => all.stop());
  // Its log written to a file, one line per request, at the defaults.
  const serverLog = join(dir, 'server.log');
  const shipped = await startBenchServer(
    [],
    serverScript,
    { WORKERS: String(cores), DATABASE_URL: `sqlite:${one.databasePath}` },
    { logFile: serverLog },
  );
  stops.push(() => shipped.stop());
  const nginx = await startNginx(dir, {
    workers: cores,
    http: [
      '  access_log off;',
      '  sendfile on;',
      '  tcp_nopush on;',
      '  keepalive_requests 1000000;',
      '  default_type "application/json; charset=utf-8";',
    ],
  });
  stops.push(() => nginx.stop());
  // nginx as Debian configures it (/etc/nginx/nginx.conf): sendfile, tcp_nopush, gzip, and every
  // request in the access log; keep-alive connections at nginx's default of 1,000 requests.
  const debianDir = join(dir, 'debian');
  mkdirSync(debianDir);
  chmodSync(debianDir, 0o755);
  symlinkSync(join(dir, 'www'), join(debianDir, 'www'));
  const debianNginx = await startNginx(debianDir, {
    workers: cores,
    http: ['  sendfile on;', '  tcp_nopush on;', '  gzip on;', '  default_type "application/json; charset=utf-8";'],
  });
  stops.push(() => debianNginx.stop());
  const node = await startBareNode(join(dir, 'www'));
  stops.push(() => node.stop());
  const nodeAll = await startBareNode(join(dir, 'www'), cores);
  stops.push(() => nodeAll.stop());
  /** Request logs grow by megabytes a second under wrk: emptied after every run (both writers append). */
  const logs = [serverLog, join(debianDir, 'access.log')];

  const subjects = [
    { name: 'nginx', url: nginx.url, pathOf: (t: (typeof targets)[number]) => `/${t.file}` },
    { name: 'bare Node', url: node.url, pathOf: (t: (typeof targets)[number]) => `/${t.file}` },
    { name: 'server, 1 worker', url: one.url, pathOf: (t: (typeof targets)[number]) => t.path },
    { name: `server, ${cores} workers`, url: all.url, pathOf: (t: (typeof targets)[number]) => t.path },
    { name: 'nginx as Debian ships it', url: debianNginx.url, pathOf: (t: (typeof targets)[number]) => `/${t.file}` },
    {
      name: `server, ${cores} workers, defaults`,
      url: shipped.url,
      pathOf: (t: (typeof targets)[number]) => t.path,
    },
    { name: `bare Node, ${cores} processes`, url: nodeAll.url, pathOf: (t: (typeof targets)[number]) => `/${t.file}` },
  ];
  for (const target of targets) {
    for (const subject of subjects) {
      const bytes = await bytesOf(`${subject.url}${subject.pathOf(target)}`);
      if (sha256(bytes) !== sha256(target.bytes))
        throw new Error(`${subject.name} answers other bytes for ${target.name}`);
    }
    console.log(`${target.name}: ${target.bytes.length} bytes, the same from every subject`);
  }

  const runs = new Map<string, WrkRun[]>();
  const key = (target: string, subject: string) => `${target}\u0000${subject}`;
  for (let r = 0; r < rounds; r++) {
    const order = [...subjects.slice(r % subjects.length), ...subjects.slice(0, r % subjects.length)];
    for (const target of targets) {
      for (const subject of order) {
        // Warmed before each run, not once: a server process that rested for a whole idle-trim
        // window while the others were measured has given memory back, and serves its next
        // burst's first second or so slower (docs/memory.md#memory-at-rest).
        if (warmupSeconds > 0) wrk(`${subject.url}${subject.pathOf(target)}`, { ...load, seconds: warmupSeconds });
        const run = wrk(`${subject.url}${subject.pathOf(target)}`, load);
        for (const log of logs) truncateSync(log);
        console.log(
          `  round ${r + 1} ${target.name} ${subject.name}: ${run.requestsPerSecond} req/s, p99 ${run.p99Ms} ms` +
            `${run.errors > 0 ? `, ${run.errors} errors` : ''} (load ${run.loadAverage.join(' ')})`,
        );
        const list = runs.get(key(target.name, subject.name)) ?? [];
        list.push(run);
        runs.set(key(target.name, subject.name), list);
      }
    }
  }

  const median = (values: number[]) => {
    const sorted = values.toSorted((a, b) => a - b);
    const middle = sorted.length >> 1;
    return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  };
  const summary = (target: string, subject: string) => {
    const list = runs.get(key(target, subject)) ?? [];
    return {
      requestsPerSecond: round(median(list.map((run) => run.requestsPerSecond)), 0),
      p50Ms: round(median(list.map((run) => run.p50Ms)), 2),
      p99Ms: round(median(list.map((run) => run.p99Ms)), 2),
      worstP99Ms: Math.max(...list.map((run) => run.p99Ms)),
      errors: list.reduce((sum, run) => sum + run.errors, 0),
      runs: list,
    };
  };

  const results = targets.map((target) => {
    const figures = Object.fromEntries(subjects.map((subject) => [subject.name, summary(target.name, subject.name)]));
    const [nginxF, nodeF, oneF, allF, debianF, shippedF, nodeAllF] = subjects.map((subject) => figures[subject.name]);
    if (
      nginxF === undefined ||
      nodeF === undefined ||
      oneF === undefined ||
      allF === undefined ||
      debianF === undefined ||
      shippedF === undefined ||
      nodeAllF === undefined
    )
      throw new Error('a subject was not measured');
    const oneWorkerOfNode = round(oneF.requestsPerSecond / nodeF.requestsPerSecond, 2);
    const allCoresOfNginx = round(allF.requestsPerSecond / nginxF.requestsPerSecond, 2);
    const shippedOfDebianNginx = round(shippedF.requestsPerSecond / debianF.requestsPerSecond, 2);
    // No goal: what Node itself reaches on every core, and how near the server as shipped comes.
    const bareNodeOfDebianNginx = round(nodeAllF.requestsPerSecond / debianF.requestsPerSecond, 2);
    const shippedOfBareNode = round(shippedF.requestsPerSecond / nodeAllF.requestsPerSecond, 2);
    const ok =
      Object.values(figures).every((f) => f.errors === 0) &&
      (load.newConnections ||
        (oneWorkerOfNode >= goals.oneWorkerOfNode &&
          allCoresOfNginx >= goals.allCoresOfNginx &&
          allF.p99Ms < goals.allCoresP99Ms &&
          shippedOfDebianNginx >= goals.shippedOfDebianNginx &&
          shippedF.p99Ms < goals.shippedP99Ms));
    return {
      name: target.name,
      path: target.path,
      bytes: target.bytes.length,
      figures,
      oneWorkerOfNode,
      allCoresOfNginx,
      shippedOfDebianNginx,
      bareNodeOfDebianNginx,
      shippedOfBareNode,
      ok,
    };
  });

  console.log('');
  console.log('| target | subject | req/s | p50 ms | p99 ms | errors |');
  console.log('|---|---|---|---|---|---|');
  for (const result of results) {
    for (const [subject, f] of Object.entries(result.figures)) {
      console.log(`| ${result.name} | ${subject} | ${f.requestsPerSecond} | ${f.p50Ms} | ${f.p99Ms} | ${f.errors} |`);
    }
  }
  console.log('');
  for (const result of results) {
    console.log(
      `${result.name} (${result.bytes} bytes): 1 worker / bare Node ${result.oneWorkerOfNode} (goal ≥ ${goals.oneWorkerOfNode}), ` +
        `${cores} workers / nginx ${result.allCoresOfNginx} (goal ≥ ${goals.allCoresOfNginx}, p99 < ${goals.allCoresP99Ms} ms), ` +
        `both as shipped (server logging every request, nginx as Debian configures it) ${result.shippedOfDebianNginx} ` +
        `(goal ≥ ${goals.shippedOfDebianNginx}, p99 < ${goals.shippedP99Ms} ms); ` +
        `bare Node on ${cores} cores / nginx as Debian ships it ${result.bareNodeOfDebianNginx}, ` +
        `as shipped / bare Node on ${cores} cores ${result.shippedOfBareNode} (no goals: Node's own ceiling)`,
    );
  }
  const out = writeResults('bench-api', {
    when: new Date().toISOString(),
    command: ['wrk', ...wrkOptions(load)].map((arg) => (arg.includes(' ') ? `'${arg}'` : arg)).join(' '),
    settings: { ...load, rounds, warmupSeconds, cores, goals },
    machine: { ...machine, loadAverageAtEnd: loadavg().map((l) => round(l, 2)) },
    results,
  });
  console.log(`\nresults: ${out}`);
  if (results.every((result) => result.ok)) {
    console.log(
      load.newConnections ? 'PASS: no errors (new connections: no goals)' : 'PASS: every goal met, no errors',
    );
    exitCode = 0;
  } else {
    for (const result of results.filter((r) => !r.ok)) console.log(`FAIL ${result.name}: a goal missed, or errors`);
  }
} finally {
  for (const stop of stops.reverse()) await stop();
}
process.exit(exitCode);

/** scripts/bench-api-server.ts on a free port, serving the files in `dir`. */
async function startBareNode(filesDir: string, processes = 1): Promise<{ url: string; stop(): Promise<unknown> }> {
  const port = await freePort();
  const { child, stop } = spawnGroup(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'scripts/bench-api-server.ts')],
    {
      cwd: repoRoot,
      env: { ...process.env, PORT: String(port), BENCH_FILES: filesDir, BENCH_PROCESSES: String(processes) },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    try {
      await fetch(`${url}/`);
      break;
    } catch {
      if (tries > 100 || child.exitCode !== null) throw new Error('the bare Node server did not start');
      await new Promise((wait) => setTimeout(wait, 100));
    }
  }
  return { url, stop: () => stop() };
}
