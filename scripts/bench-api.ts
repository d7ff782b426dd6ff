/**
 * `npm run bench:api`: how close the public reads come to the ceiling of the stack. One server
 * process (scripts/bench-api-server.ts: the built server plus /v1/bench/ceiling) on a fresh SQLite
 * file with 50 published announcements. For bulletin/page (page_size 50) and bulletin/detail,
 * autocannon measures the endpoint and, beside it, the ceiling: the same server answering the
 * same bytes and headers from a fixed in-memory buffer. Endpoint and ceiling alternate over
 * BENCH_ROUNDS rounds (order swapped each round) so that drift on a shared machine hits both.
 *
 * Reported: requests/s of each, the endpoint's share of its ceiling, p50/p99 latency, errors.
 * Results also go to .tmp/bench-api.json, or to the file BENCH_RESULTS names. Exits 1 when a
 * read endpoint is under 80 % of its ceiling, or anything answered an error.
 *
 * Environment: BENCH_SECONDS per measurement (default 10), BENCH_ROUNDS (default 3),
 * BENCH_CONNECTIONS (default 100), BENCH_WARMUP_SECONDS (default 3).
 */
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { intFromEnv, publishAnnouncements, startBenchServer, writeResults } from './bench-support.js';

const seconds = intFromEnv('BENCH_SECONDS', 10, 2, 600);
const rounds = intFromEnv('BENCH_ROUNDS', 3, 1, 20);
const connections = intFromEnv('BENCH_CONNECTIONS', 100, 1, 1000);
const warmupSeconds = intFromEnv('BENCH_WARMUP_SECONDS', 3, 0, 60);
const goal = 0.8;
const headers = { 'accept-encoding': 'br, gzip' };

interface Run {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  bytesPerResponse: number;
}

async function measure(url: string, duration: number): Promise<Run> {
  const result = await autocannon({ url, connections, duration, headers, timeout: 10 });
  return {
    requestsPerSecond: result.requests.mean,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    bytesPerResponse: result.requests.total > 0 ? Math.round(result.throughput.total / result.requests.total) : 0,
  };
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

function summarize(runs: Run[]) {
  return {
    requestsPerSecond: round(mean(runs.map((r) => r.requestsPerSecond))),
    p50Ms: round(mean(runs.map((r) => r.p50)), 2),
    p99Ms: round(mean(runs.map((r) => r.p99)), 2),
    worstP99Ms: Math.max(...runs.map((r) => r.p99)),
    errors: runs.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0),
    bytesPerResponse: runs[0]?.bytesPerResponse ?? 0,
    rounds: runs.map((r) => round(r.requestsPerSecond)),
  };
}

console.log(
  `bench:api: ${rounds} round(s) of ${seconds} s per measurement at ${connections} connections, ` +
    `Node ${process.version}, ${cpus().length} core(s), load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
);
console.log('note: autocannon and the server share this machine; the ratio to the ceiling is the figure that matters');

const server = await startBenchServer(['--import', 'tsx'], 'scripts/bench-api-server.ts');
let exitCode = 1;
try {
  const { ids } = await publishAnnouncements(server.url, server.adminToken, 50);
  const detailId = ids[Math.floor(ids.length / 2)];
  const targets: [string, string][] = [
    ['bulletin/page', '/v1/bulletin/page?page_index=1&page_size=50'],
    ['bulletin/detail', `/v1/bulletin/detail?id=${detailId}`],
  ];
  const results = [];
  for (const [name, path] of targets) {
    const endpoint = `${server.url}${path}`;
    const ceiling = `${server.url}/v1/bench/ceiling?path=${encodeURIComponent(path)}`;
    if (warmupSeconds > 0) {
      await measure(endpoint, warmupSeconds);
      await measure(ceiling, warmupSeconds);
    }
    const endpointRuns: Run[] = [];
    const ceilingRuns: Run[] = [];
    for (let r = 0; r < rounds; r++) {
      process.stdout.write(`  ${name}: round ${r + 1}/${rounds}… `);
      const order: [string, Run[]][] = [
        [endpoint, endpointRuns],
        [ceiling, ceilingRuns],
      ];
      if (r % 2 === 1) order.reverse();
      for (const [url, runs] of order) runs.push(await measure(url, seconds));
      console.log(
        `endpoint ${endpointRuns.at(-1)?.requestsPerSecond.toFixed(0)} req/s, ceiling ${ceilingRuns.at(-1)?.requestsPerSecond.toFixed(0)} req/s`,
      );
    }
    const measured = summarize(endpointRuns);
    const top = summarize(ceilingRuns);
    const share = measured.requestsPerSecond / top.requestsPerSecond;
    results.push({
      name,
      path,
      endpoint: measured,
      ceiling: top,
      shareOfCeilingPct: round(share * 100),
      ok: share >= goal && measured.errors === 0 && top.errors === 0,
    });
  }

  console.log('');
  console.log('| endpoint | req/s | ceiling req/s | share | p50 ms | p99 ms | ceiling p99 ms | bytes | errors |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.name} | ${r.endpoint.requestsPerSecond.toFixed(0)} | ${r.ceiling.requestsPerSecond.toFixed(0)} | ` +
        `${r.shareOfCeilingPct.toFixed(1)} % | ${r.endpoint.p50Ms} | ${r.endpoint.p99Ms} | ${r.ceiling.p99Ms} | ` +
        `${r.endpoint.bytesPerResponse} | ${r.endpoint.errors} |`,
    );
  }
  const out = writeResults('bench-api', {
    when: new Date().toISOString(),
    settings: { seconds, rounds, connections, warmupSeconds, headers, goalPct: goal * 100 },
    machine: { node: process.version, cpus: cpus().length, loadAverageAtEnd: loadavg() },
    results,
  });
  console.log(`\nresults: ${out}`);
  const failed = results.filter((r) => !r.ok);
  if (failed.length === 0) {
    console.log(`PASS: every read endpoint at ${goal * 100} % or more of its ceiling, no errors`);
    exitCode = 0;
  } else {
    for (const r of failed)
      console.log(`FAIL ${r.name}: ${r.shareOfCeilingPct} % of the ceiling, ${r.endpoint.errors} errors`);
  }
} finally {
  await server.stop();
}
process.exit(exitCode);
