/**
 * `npm run bench:metrics`: what the metrics cost (docs/monitoring.md#metrics). In one process, no
 * server: the work the onResponse hook adds to each request (one observation of the request
 * histogram, labelled by route, method and status), a read-cache lookup's count, and one scrape
 * (the text of every series, with Node's default metrics) once 120 request series exist.
 *
 * Reported: nanoseconds per observation and per count (the best of BENCH_ROUNDS rounds, default
 * 5, so that other work on a shared machine counts least), milliseconds and bytes per scrape.
 * Results also go to .tmp/bench-metrics.json, or to the file BENCH_RESULTS names.
 */
import { readCacheCounts } from '../server/src/lib/metrics.js';
import { startMetering } from '../server/src/lib/metrics-registry.js';
import { intFromEnv, machineFacts, round, writeResults } from './bench-support.js';

const rounds = intFromEnv('BENCH_ROUNDS', 5, 1, 50);
const calls = 200_000;
const routes = Array.from({ length: 40 }, (_, index) => `/v1/route-${index}/:id`);
const statuses = [200, 304, 404];

const { httpRequestDuration, registry } = startMetering();

/** Nanoseconds per call of `work`, best of the rounds. */
function best(work: (index: number) => void): number {
  let fastest = Infinity;
  for (let round = 0; round < rounds; round++) {
    const started = process.hrtime.bigint();
    for (let index = 0; index < calls; index++) work(index);
    fastest = Math.min(fastest, Number(process.hrtime.bigint() - started) / calls);
  }
  return fastest;
}

const observeNs = best((index) => {
  const route = routes[index % routes.length] as string;
  const status = statuses[index % statuses.length] as number;
  httpRequestDuration.observe({ route, method: 'GET', status }, (index % 100) / 10_000);
});
const countNs = best(() => {
  readCacheCounts.hits++;
});

let scrapeMs = Infinity;
let scrapeBytes = 0;
for (let round = 0; round < rounds; round++) {
  const started = performance.now();
  const text = await registry.metrics();
  scrapeMs = Math.min(scrapeMs, performance.now() - started);
  scrapeBytes = Buffer.byteLength(text);
}

const requestSeries = routes.length * statuses.length;
const results = [
  { name: 'request observation', nsPerCall: round(observeNs) },
  { name: 'read-cache count', nsPerCall: round(countNs, 2) },
  { name: 'scrape', requestSeries, ms: round(scrapeMs, 2), bytes: scrapeBytes },
];
const machine = machineFacts();
console.log(
  `bench:metrics: best of ${rounds} round(s), Node ${process.version}, load ${machine.loadAverageAtStart.join(' ')}`,
);
console.log(`  request histogram observation: ${round(observeNs)} ns per request`);
console.log(`  read-cache count:              ${round(countNs, 2)} ns per lookup`);
console.log(`  scrape (${requestSeries} request series):  ${round(scrapeMs, 2)} ms, ${scrapeBytes} bytes`);
console.log(`results: ${writeResults('bench-metrics', { machine, rounds, callsPerRound: calls, results })}`);
