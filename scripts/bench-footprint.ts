/**
 * `npm run bench:footprint`: the memory each process of `npm start` holds at rest, with the demo
 * content and two workers (docs/performance.md#footprint). It starts `npm start` on a fresh SQLite
 * file, measures every process at rest once it serves, then again at rest after BENCH_READS
 * (2,000) reads of the page, the API and a hosted picture; at rest is two windows of the idle
 * trim after the last request (IDLE_TRIM_SECONDS). Per process: RSS (what `ps` and most dashboards
 * show), its anonymous part (heap and stacks: what the process itself costs; the rest is the
 * node binary and files, shared between processes and given back under pressure) and PSS (RSS
 * with each shared page divided among the processes sharing it).
 * Goals: the supervisor at most 40 MB and each worker at most 90 MB after the reads. It exits 1
 * unless they are met by RSS, and says whether they are met by PSS too. BENCH_WORKERS (2) sets
 * WORKERS; with 1 the one process (no supervisor) is measured against the worker's goal.
 * BENCH_BURST_SECONDS (0) adds, after the reads, that many seconds of `wrk -t2 -c16` on each path:
 * a heavier warm-up, as many thousands of requests as the machine answers.
 * Beside them it measures a bare process of the same node binary, running nothing but a timer:
 * the floor no process of the server can go below (docs/performance.md#footprint). Then it
 * measures once more BENCH_LATER_SECONDS (60) later with nothing asked meanwhile: a process that
 * keeps working at rest grows between the two (docs/memory.md#memory-at-rest), and the goals
 * hold the larger of the two.
 */
import { mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { intFromEnv, machineFacts, round, wrk, writeResults } from './bench-support.js';
import { freePort } from '../testing/free-port.js';
import { descendants, spawnGroup } from '../testing/process-group.js';
import { repoRoot } from '../testing/repo-root.js';

const reads = intFromEnv('BENCH_READS', 2_000, 10, 1_000_000);
const workers = intFromEnv('BENCH_WORKERS', 2, 1, 64);
const burstSeconds = intFromEnv('BENCH_BURST_SECONDS', 0, 0, 600);
const laterMs = intFromEnv('BENCH_LATER_SECONDS', 60, 0, 86_400) * 1000;
const restMs = (2 * intFromEnv('IDLE_TRIM_SECONDS', 60, 0, 86_400) + 2) * 1000;
const goals = { supervisor: 40, worker: 90 };

interface Memory {
  rss: number;
  anon: number;
  pss: number;
  /** Of the anonymous part, what glibc's main malloc heap holds: C++ memory of the main thread,
   * freed or not (docs/performance.md#footprint). The rest is mostly V8's heap. */
  mallocHeap: number;
}

/** MB from a `Name:   1234 kB` line of a /proc file. */
function field(text: string, name: string): number {
  const kb = Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  return round(kb / 1024);
}

function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const heapMapping = readFileSync(`/proc/${pid}/smaps`, 'utf8')
    .split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)
    .find((mapping) => mapping.split('\n', 1)[0]?.endsWith('[heap]'));
  return {
    rss: field(status, 'VmRSS'),
    anon: field(status, 'RssAnon'),
    pss: field(rollup, 'Pss'),
    mallocHeap: heapMapping === undefined ? 0 : field(heapMapping, 'Rss'),
  };
}

function commandLine(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
}

/** The processes of `npm start` by role: npm itself, the supervisor, the workers; with one
 * worker, npm and the one server process, which serves as a worker does. */
function roles(npmPid: number): { role: string; pid: number }[] {
  const below = descendants(npmPid).filter((pid) => /\bnode\b/.test(readlinkSync(`/proc/${pid}/exe`)));
  return [
    { role: 'npm', pid: npmPid },
    ...below.map((pid) => ({
      pid,
      role: workers === 1 || commandLine(pid).includes('server/dist/server.js') ? 'worker' : 'supervisor',
    })),
  ];
}

async function readAll(base: string, paths: string[]): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  let next = 0;
  const one = async () => {
    while (next < reads) {
      const path = paths[next++ % paths.length] ?? '/';
      await new Promise<void>((done, fail) => {
        const req = request(`${base}${path}`, { agent, headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
          res.resume();
          res.once('end', done);
        });
        req.once('error', fail);
        req.end();
      });
    }
  };
  await Promise.all(Array.from({ length: 16 }, one));
  agent.destroy();
}

const dir = mkdtempSync(join(tmpdir(), 'chat-site-footprint-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
let bare: ReturnType<typeof spawnGroup> | undefined;
const server = spawnGroup('npm', ['start', '--silent'], {
  cwd: repoRoot,
  env: {
    ...process.env,
    WORKERS: String(workers),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${join(dir, 'site.db')}`,
    STORAGE_URL: `file:${join(dir, 'files')}`,
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
try {
  for (let tries = 0; ; tries++) {
    const up = await fetch(`${base}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (up && roles(server.child.pid ?? 0).filter((p) => p.role === 'worker').length === workers) break;
    if (tries > 600 || server.child.exitCode !== null) throw new Error('npm start did not come up');
    await new Promise((wait) => setTimeout(wait, 100));
  }
  const served = roles(server.child.pid ?? 0);
  // The same binary the server runs, doing nothing: what Node.js itself holds.
  const binary = readlinkSync(`/proc/${served.find((p) => p.role !== 'npm')?.pid}/exe`);
  bare = spawnGroup(binary, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
  // At rest: a whole quiet window of the idle trim (IDLE_TRIM_SECONDS, 60 by default) has ended
  // after the last request, so each process has given back what its heap grew by.
  const settle = () => new Promise((wait) => setTimeout(wait, restMs));
  await settle();
  const processes = [...served, { role: 'bare node', pid: bare.child.pid ?? 0 }];
  const atStart = processes.map((p) => ({ ...p, ...memoryOf(p.pid) }));

  const page = (await (await fetch(`${base}/v1/bulletin/page`)).json()) as { list: { id: number; content: string }[] };
  const picture = page.list.map((item) => /file\/preview\/[\w.-]+/.exec(item.content)?.[0]).find(Boolean);
  const paths = [
    '/',
    '/v1/bulletin/page',
    '/v1/common/appconfig',
    '/v1/common/getInstallPackageAddrs',
    ...page.list.map((item) => `/v1/bulletin/detail?id=${item.id}`),
    ...(picture === undefined ? [] : [`/v1/${picture}`]),
  ];
  await readAll(base, paths);
  if (burstSeconds > 0) {
    for (const path of paths) wrk(`${base}${path}`, { threads: 2, connections: 16, seconds: burstSeconds });
  }
  await settle();
  const afterReads = processes.map((p) => ({ ...p, ...memoryOf(p.pid) }));
  await new Promise((wait) => setTimeout(wait, laterMs));
  const later = processes.map((p) => ({ ...p, ...memoryOf(p.pid) }));

  const warmUp = `${reads} reads${burstSeconds > 0 ? ` and ${burstSeconds} s of wrk on each of ${paths.length} paths` : ''}`;
  console.log(`\nMemory of npm start (WORKERS=${workers}, demo content), MB; ${warmUp} between the two columns\n`);
  console.log(
    `| process | RSS after start | RSS after reads | anonymous after | malloc heap after | PSS after | RSS ${laterMs / 1000} s later | goal |`,
  );
  console.log('|---|---|---|---|---|---|---|---|');
  let met = true;
  let metByPss = true;
  for (const [index, p] of afterReads.entries()) {
    const goal = p.role === 'supervisor' || p.role === 'worker' ? goals[p.role] : undefined;
    const then = later[index] ?? p;
    if (goal !== undefined && Math.max(p.rss, then.rss) > goal) met = false;
    if (goal !== undefined && Math.max(p.pss, then.pss) > goal) metByPss = false;
    const start = atStart[index];
    console.log(
      `| ${p.role} (${p.pid}) | ${start?.rss} | ${p.rss} | ${p.anon} | ${p.mallocHeap} | ${p.pss} | ${then.rss} | ${goal === undefined ? '' : `≤ ${goal}`} |`,
    );
  }
  console.log(`\nGoals by RSS ${met ? 'met' : 'NOT met'}; by PSS ${metByPss ? 'met' : 'NOT met'}.`);
  const floor = afterReads.find((p) => p.role === 'bare node');
  if (floor !== undefined) {
    console.log(
      `A bare node process of the same binary holds ${floor.rss} MB of RSS (${floor.anon} anonymous, PSS ${floor.pss}): ` +
        `no process of the server can hold less.`,
    );
  }
  const file = writeResults('footprint', {
    machine: machineFacts(),
    workers,
    reads,
    burstSeconds,
    goals,
    atStart,
    afterReads,
    laterSeconds: laterMs / 1000,
    later,
    met,
    metByPss,
  });
  console.log(`Results: ${file}`);
  process.exitCode = met ? 0 : 1;
} finally {
  await bare?.stop();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
