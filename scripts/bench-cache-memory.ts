/**
 * `npm run bench:cache-memory`: what the public read cache holds when it is asked for many
 * different things. Two figures:
 * 1. the built server, asked for 60,000 distinct `page_index` values of /v1/bulletin/page: how
 *    much its resident memory grows (every page past the last is one answer, so it should not);
 * 2. in this process, the heap an entry of the cache really costs beside the bytes of its answer,
 *    for 50,000 tiny answers under distinct keys: the figure `entryOverheadBytes` must cover.
 * BENCH_PAGES and BENCH_ENTRIES change the counts.
 */
import { Agent, request } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Fastify from 'fastify';
import type { ContentChanges } from '../server/src/db/changes.js';
import { entryOverheadBytes, ReadCache } from '../server/src/pipeline/read-cache.js';
import { intFromEnv, publishAnnouncements, RssSampler, startBenchServer, writeResults } from './bench-support.js';

const pages = intFromEnv('BENCH_PAGES', 60_000, 100, 1_000_000);
const entries = intFromEnv('BENCH_ENTRIES', 50_000, 100, 1_000_000);
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** GETs every path, `concurrency` at a time, over kept-alive connections; answers the statuses seen. */
async function getAll(base: string, paths: string[], concurrency = 32): Promise<Map<number, number>> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++] ?? '';
      const status = await new Promise<number>((done, fail) => {
        const req = request(`${base}${path}`, { agent, headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
          res.resume();
          res.once('end', () => done(res.statusCode ?? 0));
        });
        req.once('error', fail);
        req.end();
      });
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return statuses;
}

async function serverGrowth() {
  const server = await startBenchServer();
  try {
    await publishAnnouncements(server.url, server.adminToken, 30);
    const rss = new RssSampler(server.pid);
    // Warm up with the same load on the three real pages: the heap grows to what this rate of
    // requests needs whatever they ask for, so what grows after it is what the cache holds.
    const warmUp = Array.from({ length: pages }, (_, n) => `/v1/bulletin/page?page_index=${(n % 2) + 1}&page_size=15`);
    const baseline = rss.read();
    await getAll(server.url, warmUp);
    const before = rss.read();
    const started = performance.now();
    const paths = Array.from({ length: pages }, (_, n) => `/v1/bulletin/page?page_index=${n + 1}&page_size=15`);
    const statuses = await getAll(server.url, paths);
    const seconds = (performance.now() - started) / 1000;
    const after = rss.read();
    return {
      requests: pages,
      statuses: Object.fromEntries(statuses),
      rssIdleMB: mb(baseline),
      rssAfterWarmUpMB: mb(before),
      rssAfterMB: mb(after),
      growthMB: mb(after - before),
      reqPerSecond: Math.round(pages / seconds),
    };
  } finally {
    await server.stop();
  }
}

/** Heap and buffer memory left after `entries` tiny answers under distinct keys, with a cache
 * that keeps at most `maxEntries` of them. */
async function heldAfter(maxEntries: number): Promise<{ bytes: number; cache: ReadCache }> {
  const changes: ContentChanges = {
    generation: () => 0,
    afterReads: (task) => task(),
    trustworthy: () => true,
    changed: () => undefined,
    nextChange: () => new Promise(() => {}),
    close: async () => undefined,
  };
  const cache = new ReadCache({ changes, maxBytes: 4 * 1024 * 1024 * 1024, maxEntries });
  const app = Fastify();
  app.get<{ Querystring: { n: string } }>('/tiny', async (req, reply) =>
    cache.send(req, reply, `bulletin/page ${req.query.n} 15`, async () => ({ count: 0, list: [] })),
  );
  await app.ready();
  await app.inject('/tiny?n=0');
  gc();
  const before = process.memoryUsage();
  for (let n = 1; n <= entries; n++) await app.inject(`/tiny?n=${n}`);
  gc();
  const after = process.memoryUsage();
  await app.close();
  return { bytes: after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers, cache };
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** What an entry costs: the same requests with every answer kept, less with ten kept (the
 * requests themselves leave garbage and caches of their own, which this takes away). */
async function entryCost() {
  const few = await heldAfter(10);
  const all = await heldAfter(entries * 2);
  return {
    entries,
    bytesPerEntry: Math.round((all.bytes - few.bytes) / entries),
    answerBytes: JSON.stringify({ count: 0, list: [] }).length,
    countedPerEntry: Math.round(all.cache.size / all.cache.entries),
    entryOverheadBytes,
  };
}

const growth = await serverGrowth();
const cost = await entryCost();
console.log(
  `${growth.requests} distinct page numbers after as many to two pages: RSS ${growth.rssIdleMB} MB idle, ` +
    `${growth.rssAfterWarmUpMB} MB after the warm-up, ${growth.rssAfterMB} MB after ` +
    `(+${growth.growthMB} MB; goal under 40 MB), ${growth.reqPerSecond} req/s, statuses ${JSON.stringify(growth.statuses)}`,
);
console.log(
  `${cost.entries} tiny entries in the cache itself: ${cost.bytesPerEntry} bytes of memory each for a ` +
    `${cost.answerBytes}-byte answer; the cache counts ${cost.countedPerEntry} (overhead constant ${cost.entryOverheadBytes})`,
);
const out = writeResults('bench-cache-memory', { growth, cost });
console.log(`results: ${out}`);
process.exitCode = growth.growthMB < 40 && cost.countedPerEntry >= cost.bytesPerEntry ? 0 : 1;
