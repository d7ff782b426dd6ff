/**
 * `npm run bench:load`: the real built server under load, one target at a time: the announcement
 * page (50 announcements), one announcement, the page `/` and a hashed asset. Each gets 100
 * concurrent connections for BENCH_SECONDS (default 60) from autocannon, with
 * `accept-encoding: br, gzip`, while the server's RSS is sampled every second.
 *
 * Reported per target: requests/s, latency p50/p99/max, totals, errors, timeouts, non-2xx, RSS
 * at start and end, and whether memory stayed flat: the lowest RSS of the last third of the run
 * against the lowest of the first third, growth over 10 % being NOT FLAT. The lowest, not the
 * mean or one sample: a busy target's heap rises and falls by tens of MB between collections (the
 * page's sawtooth), and what a leak moves is the floor the collections come back to. Results also
 * go to .tmp/bench-load.json, or to the file
 * BENCH_RESULTS names. Exits 1 when any target had an error, a timeout or a non-2xx answer, or
 * memory was not flat.
 *
 * Build first (`npm run build`); the server serves its own copy of web/dist, so a rebuild during
 * a run does not break it. Only 127.0.0.1 is contacted. Environment: BENCH_SECONDS (3–600),
 * BENCH_WARMUP_SECONDS (default 5: unmeasured load before each target), BENCH_CONNECTIONS
 * (default 100), BENCH_TARGETS (e.g. `page,asset`: only targets whose names contain one of these).
 */
import { get } from 'node:http';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import {
  intFromEnv,
  machineFacts,
  publishAnnouncements,
  round,
  RssSampler,
  startBenchServer,
  type RssSample,
  writeResults,
} from './bench-support.js';

const seconds = intFromEnv('BENCH_SECONDS', 60, 3, 600);
const warmupSeconds = intFromEnv('BENCH_WARMUP_SECONDS', 5, 0, 60);
const connections = intFromEnv('BENCH_CONNECTIONS', 100, 1, 1000);
/** The memory windows: the first and the last third of the run. */
const windowSeconds = seconds / 3;
const flatLimit = 0.1;
const headers = { 'accept-encoding': 'br, gzip' };
/** BENCH_TARGETS=page,asset runs only the targets whose names contain one of these. */
const only = process.env.BENCH_TARGETS?.split(',').map((part) => part.trim());

interface TargetResult {
  name: string;
  path: string;
  /** What one request answers before the run: status, encoding and size on the wire. */
  probe: { status: number; contentEncoding: string | null; bytes: number };
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  totalRequests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  throughputMBps: number;
  rss: {
    beforeWarmupMB: number;
    startMB: number;
    endMB: number;
    peakMB: number;
    /** The lowest RSS sampled in the first third of the run, and in the last third. */
    firstWindowMB: number;
    lastWindowMB: number;
    deltaMB: number;
    deltaPct: number;
    flat: boolean;
    samples: RssSample[];
  };
  loadAverage: { before: number[]; after: number[] };
  ok: boolean;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
/** The floor a window's collections came back to. */
const lowest = (values: number[]) => (values.length === 0 ? NaN : Math.min(...values));

/** One request as autocannon sends it, through node:http so the body is counted as it travels. */
function probe(url: string): Promise<TargetResult['probe']> {
  return new Promise((done, fail) => {
    get(url, { headers }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.byteLength));
      response.on('end', () => {
        const encoding = response.headers['content-encoding'];
        done({ status: response.statusCode ?? 0, contentEncoding: encoding ?? null, bytes });
      });
      response.on('error', fail);
    }).on('error', fail);
  });
}

async function runTarget(base: string, pid: number, name: string, path: string): Promise<TargetResult> {
  const url = `${base}${path}`;
  const probed = await probe(url);
  const sampler = new RssSampler(pid);
  const beforeWarmup = sampler.read();
  if (warmupSeconds > 0) {
    process.stdout.write(`  ${name}: warm-up ${warmupSeconds} s… `);
    await autocannon({ url, connections, duration: warmupSeconds, headers });
  }
  const loadBefore = loadavg().map((l) => round(l, 2));
  process.stdout.write(`${warmupSeconds > 0 ? '' : `  ${name}: `}${seconds} s at ${connections} connections… `);
  sampler.start();
  const result = await autocannon({ url, connections, duration: seconds, headers, timeout: 10 });
  const samples = sampler.stop();
  const loadAfter = loadavg().map((l) => round(l, 2));

  const first = samples.filter((s) => s.t < windowSeconds).map((s) => s.rss);
  const last = samples.filter((s) => s.t > seconds - windowSeconds).map((s) => s.rss);
  const firstWindow = lowest(first);
  const lastWindow = lowest(last);
  const delta = lastWindow - firstWindow;
  const flat = Number.isFinite(delta) && delta / firstWindow <= flatLimit;
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]),
  );
  const ok =
    result.requests.total > 0 &&
    result.errors === 0 &&
    result.timeouts === 0 &&
    result.non2xx === 0 &&
    probed.status === 200 &&
    flat;
  const rssValues = samples.map((s) => s.rss);
  console.log(ok ? 'ok' : 'FAILED');
  return {
    name,
    path,
    probe: probed,
    requestsPerSecond: round(result.requests.mean),
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: round(result.latency.mean, 2),
    },
    totalRequests: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
    throughputMBps: round(result.throughput.mean / 1024 / 1024, 2),
    rss: {
      beforeWarmupMB: mb(beforeWarmup),
      startMB: mb(rssValues[0] ?? NaN),
      endMB: mb(rssValues.at(-1) ?? NaN),
      peakMB: mb(Math.max(...rssValues)),
      firstWindowMB: mb(firstWindow),
      lastWindowMB: mb(lastWindow),
      deltaMB: mb(delta),
      deltaPct: round((delta / firstWindow) * 100),
      flat,
      samples,
    },
    loadAverage: { before: loadBefore, after: loadAfter },
    ok,
  };
}

function printTable(results: TargetResult[]): void {
  const columns: [string, (r: TargetResult) => string][] = [
    ['target', (r) => r.name],
    ['req/s', (r) => r.requestsPerSecond.toFixed(0)],
    ['p50 ms', (r) => String(r.latencyMs.p50)],
    ['p99 ms', (r) => String(r.latencyMs.p99)],
    ['max ms', (r) => String(r.latencyMs.max)],
    ['requests', (r) => String(r.totalRequests)],
    ['errors', (r) => String(r.errors)],
    ['timeouts', (r) => String(r.timeouts)],
    ['non-2xx', (r) => String(r.non2xx)],
    ['enc', (r) => r.probe.contentEncoding ?? 'none'],
    ['bytes', (r) => String(r.probe.bytes)],
    ['RSS start MB', (r) => r.rss.startMB.toFixed(1)],
    ['RSS end MB', (r) => r.rss.endMB.toFixed(1)],
    ['lowest, first third MB', (r) => r.rss.firstWindowMB.toFixed(1)],
    ['lowest, last third MB', (r) => r.rss.lastWindowMB.toFixed(1)],
    ['Δ MB', (r) => (r.rss.deltaMB >= 0 ? '+' : '') + r.rss.deltaMB.toFixed(1)],
    ['Δ %', (r) => (r.rss.deltaPct >= 0 ? '+' : '') + r.rss.deltaPct.toFixed(1)],
    ['memory', (r) => (r.rss.flat ? 'flat' : 'NOT FLAT')],
  ];
  const cells = [columns.map(([title]) => title), ...results.map((r) => columns.map(([, cell]) => cell(r)))];
  const widths = columns.map((_, i) => Math.max(...cells.map((row) => row[i]?.length ?? 0)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(line(cells[0] ?? []));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of cells.slice(1)) console.log(line(row));
}

const machine = machineFacts();
console.log(
  `bench:load: ${connections} connections, ${seconds} s per target (+${warmupSeconds} s unmeasured warm-up), ` +
    `memory judged by the lowest RSS of the first and last ${round(windowSeconds)} s, Node ${machine.node}`,
);
console.log(
  `note: ${machine.cpus} CPU core(s) (${machine.cpuModel}); autocannon and the server share them, so the ` +
    `figures are a lower bound of what the server alone would do. Load average now: ${machine.loadAverageAtStart.join(' ')}`,
);

const server = await startBenchServer();
let exitCode = 1;
try {
  console.log(`server pid ${server.pid} on ${server.url} (SQLite ${server.databasePath}, LOG_LEVEL=warn)`);
  const { ids, meanContentBytes } = await publishAnnouncements(server.url, server.adminToken, 50);
  const detailId = ids[Math.floor(ids.length / 2)];
  console.log(
    `published ${ids.length} announcements (HTML ${meanContentBytes} bytes each on average); ` +
      `detail target id ${detailId}; asset ${server.asset} (a private copy of web/dist)`,
  );

  const allTargets: [string, string][] = [
    ['bulletin/page', '/v1/bulletin/page?page_index=1&page_size=50'],
    ['bulletin/detail', `/v1/bulletin/detail?id=${detailId}`],
    ['page /', '/'],
    ['hashed asset', `/assets/${server.asset}`],
  ];
  const targets = allTargets.filter(([name]) => only === undefined || only.some((part) => name.includes(part)));
  if (targets.length === 0) throw new Error(`BENCH_TARGETS=${process.env.BENCH_TARGETS} names no target`);
  const results: TargetResult[] = [];
  for (const [name, path] of targets) results.push(await runTarget(server.url, server.pid, name, path));

  console.log('');
  printTable(results);
  const failed = results.filter((r) => !r.ok);
  const unexpected = server.logs.filter((l) => l.trim() !== '');
  if (unexpected.length > 0) {
    console.log(`\nserver logged ${unexpected.length} line(s) at warn or above; first ones:`);
    for (const l of unexpected.slice(0, 5)) console.log(`  ${l.slice(0, 300)}`);
  }
  const report = {
    when: new Date().toISOString(),
    settings: { connections, seconds, warmupSeconds, windowSeconds, flatLimitPct: flatLimit * 100, headers },
    machine: { ...machine, loadAverageAtEnd: loadavg().map((l) => round(l, 2)) },
    note: 'autocannon (the client) and the server run on the same machine and share its cores',
    serverLogLines: unexpected.length,
    results,
  };
  const out = writeResults('bench-load', report);
  console.log(`\nresults: ${out}`);
  if (failed.length === 0) {
    console.log('PASS: no errors, timeouts or non-2xx answers; memory flat on every target');
    exitCode = 0;
  } else {
    for (const r of failed) {
      const why = [
        r.totalRequests === 0 && 'no request completed',
        r.errors > 0 && `${r.errors} errors`,
        r.timeouts > 0 && `${r.timeouts} timeouts`,
        r.non2xx > 0 && `${r.non2xx} non-2xx (${JSON.stringify(r.statusCodes)})`,
        r.probe.status !== 200 && `probe answered ${r.probe.status}`,
        !r.rss.flat && `memory grew ${r.rss.deltaMB} MB (${r.rss.deltaPct} %)`,
      ].filter(Boolean);
      console.log(`FAIL ${r.name}: ${why.join(', ')}`);
    }
  }
} finally {
  await server.stop();
}
process.exit(exitCode);
