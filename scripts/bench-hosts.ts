/**
 * `npm run bench:hosts`: what a new Host header costs the built server. For the page and each
 * feed, 200 requests with one Host header, then (with the content changed in between, so each
 * run starts from an empty cache) 200 requests with 200 different ones; the server's CPU time
 * for each (utime + stime from /proc/<pid>/stat), and their ratio. Goal: at most 5.
 * BENCH_HOST_REQUESTS changes the count.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { intFromEnv, publishAnnouncements, startBenchServer, writeResults, type BenchServer } from './bench-support.js';

const count = intFromEnv('BENCH_HOST_REQUESTS', 200, 10, 100_000);
const ticksPerSecond = 100;

/** CPU milliseconds the process has used so far (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

async function get(url: string, host: string, agent: Agent): Promise<number> {
  return new Promise((done, fail) => {
    const req = request(url, { agent, headers: { host, 'accept-encoding': 'br, gzip' } }, (res) => {
      res.resume();
      res.once('end', () => done(res.statusCode ?? 0));
    });
    req.once('error', fail);
    req.end();
  });
}

/** CPU milliseconds the server spends on `count` GETs of `path`, the n-th with `hostOf(n)`. */
async function cost(server: BenchServer, path: string, hostOf: (n: number) => string): Promise<number> {
  // A write makes every held answer stale: each run starts from nothing, as after a publish.
  await publishAnnouncements(server.url, server.adminToken, 1);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const before = cpuMs(server.pid);
  for (let n = 0; n < count; n++) {
    const status = await get(`${server.url}${path}`, hostOf(n), agent);
    if (status !== 200) throw new Error(`${path} answered ${status}`);
  }
  const used = cpuMs(server.pid) - before;
  agent.destroy();
  return used;
}

const server = await startBenchServer();
const results = [];
try {
  await publishAnnouncements(server.url, server.adminToken, 30);
  for (const path of ['/', '/feed.atom', '/feed.rss', '/sitemap.xml']) {
    const oneHostMs = await cost(server, path, () => 'site.example.com');
    const manyHostsMs = await cost(server, path, (n) => `mirror-${n}.example.com`);
    const ratio = Math.round((manyHostsMs / Math.max(oneHostMs, 10)) * 10) / 10;
    results.push({ path, requests: count, oneHostMs, manyHostsMs, ratio });
    console.log(
      `${path}: ${count} requests, one Host ${oneHostMs} ms of CPU, ${count} Hosts ${manyHostsMs} ms: ${ratio}x (goal at most 5x)`,
    );
  }
} finally {
  await server.stop();
}
console.log(`results: ${writeResults('bench-hosts', results)}`);
process.exitCode = results.every((result) => result.ratio <= 5) ? 0 : 1;
