/**
 * The server's metrics in Prometheus's text format (docs/monitoring.md#metrics): one registry per
 * process, built by the first app with METRICS_TOKEN (or a test) that asks for it, so that cluster
 * workers can hand it to prom-client's AggregatorRegistry as it is. prom-client is loaded then,
 * not at start: without METRICS_TOKEN nothing reads the series, and it costs a worker about
 * 2 MB of heap (docs/performance.md#footprint). The counts themselves are lib/metrics.ts's.
 */
import type { LogEvent } from 'kysely';
import type * as PromClient from 'prom-client';
import { lazy } from './lazy.js';
import {
  allWatched,
  downloadsTotal,
  pictureCounts,
  pictureRefusals,
  readCacheCounts,
  sumWatched,
  updateChecksTotal,
  updateOffersTotal,
} from './metrics.js';
import type { Disk, LabelledCounts, Watched } from './metrics.js';

export const loadPromClient = lazy<typeof PromClient>('prom-client');

export interface Metrics {
  registry: PromClient.Registry;
  /** Every answer, by route pattern, method and status (ops/request-observer.ts). */
  httpRequestDuration: PromClient.Histogram<'route' | 'method' | 'status'>;
  /** Handed to db/connect.ts's observeQueries by an app that is metered. */
  observeQuery(event: LogEvent): void;
}

let metrics: Metrics | undefined;
let metering = false;

/** prom-client's gauges named like counters, which `promtool check metrics` rejects; the gauges of
 * the same name without `_total` hold the same counts by type (docs/monitoring.md#metrics). */
const countsNamedLikeCounters = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/** The process's registry and series, built at the first call. */
export function processMetrics(): Metrics {
  return (metrics ??= buildMetrics(loadPromClient()));
}

/** Turns on what costs something when nobody scrapes: Node's own metrics. Called by an app built
 * with METRICS_TOKEN; the command line and other apps never pay for them. */
export function startMetering(): Metrics {
  const built = processMetrics();
  if (metering) return built;
  metering = true;
  loadPromClient().collectDefaultMetrics({ register: built.registry });
  for (const name of countsNamedLikeCounters) built.registry.removeSingleMetric(name);
  return built;
}

/** Seconds: from a cached answer (well under a millisecond) to a slow upload or download. */
const requestBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

function buildMetrics({ Counter, Gauge, Histogram, Registry }: typeof PromClient): Metrics {
  const registry = new Registry();
  const registers = [registry];

  const httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to the end of its answer, by matched route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: requestBuckets,
    registers,
  });

  /** A counter whose values are plain counts, read when scraped. */
  function countsOf<Label extends string>(
    config: { name: string; help: string; labelNames: readonly Label[] },
    read: () => Iterable<{ labels: Record<Label, string>; count: number }>,
  ): void {
    new Counter({
      ...config,
      registers,
      collect() {
        this.reset();
        for (const { labels, count } of read()) this.inc(labels as PromClient.LabelValues<Label>, count);
      },
    });
  }
  const entriesOf =
    <Label extends string>(counts: LabelledCounts<Label>) =>
    () =>
      counts.entries();

  countsOf(
    {
      name: 'chat_site_read_cache_lookups_total',
      help: 'Public reads looked up in the read cache: hit (answered from memory) or miss (produced from the database)',
      labelNames: ['result'],
    },
    () => [
      { labels: { result: 'hit' }, count: readCacheCounts.hits },
      { labels: { result: 'miss' }, count: readCacheCounts.misses },
    ],
  );
  countsOf(
    {
      name: 'chat_site_share_pictures_total',
      help: 'Share pictures asked for: hit (answered from memory) or drawn (made now)',
      labelNames: ['result'],
    },
    () => [
      { labels: { result: 'hit' }, count: pictureCounts.hits },
      { labels: { result: 'drawn' }, count: pictureCounts.draws },
    ],
  );
  countsOf(
    {
      name: 'chat_site_share_pictures_refused_total',
      help: 'Share pictures refused: queue_full (503, too many waiting to be drawn) or client_budget (429)',
      labelNames: ['reason'],
    },
    () => [
      { labels: { reason: 'queue_full' }, count: pictureRefusals.queueFull },
      { labels: { reason: 'client_budget' }, count: pictureRefusals.clientBudget },
    ],
  );
  countsOf(
    {
      name: 'chat_site_downloads_total',
      help: "Downloads counted by /dl/{os}, by platform: a client's first of the platform that day",
      labelNames: ['os'],
    },
    entriesOf(downloadsTotal),
  );
  countsOf(
    {
      name: 'chat_site_update_checks_total',
      help: 'Update checks answered, by platform and client kind',
      labelNames: ['os', 'client'],
    },
    entriesOf(updateChecksTotal),
  );
  countsOf(
    {
      name: 'chat_site_update_offers_total',
      help: 'Update checks answered with a release to update to, by platform and client kind',
      labelNames: ['os', 'client'],
    },
    entriesOf(updateOffersTotal),
  );

  const gaugeOf = (name: string, help: string, read: (item: Watched) => number | undefined) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(sumWatched(read));
      },
    });
  gaugeOf('chat_site_read_cache_bytes', 'Bytes the read cache holds', (item) => item.cache?.size);
  gaugeOf('chat_site_read_cache_entries', 'Answers the read cache holds', (item) => item.cache?.entries);
  gaugeOf('chat_site_db_pool_connections', 'Database connections open (SQLite: always 1)', (i) => i.pool?.totalCount);
  gaugeOf('chat_site_db_pool_idle_connections', 'Database connections open and idle', (i) => i.pool?.idleCount);
  gaugeOf(
    'chat_site_db_pool_waiting_queries',
    'Queries waiting for a database connection',
    (i) => i.pool?.waitingCount,
  );

  healthGauges(Gauge, registers);

  /** Seconds a query took, from Kysely's log; one cached read needs none, a miss a few. */
  const queryDuration = new Histogram({
    name: 'chat_site_db_query_duration_seconds',
    help: 'Time each database query took, as Kysely measures it',
    buckets: [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2.5],
    registers,
  });
  const queryErrors = new Counter({
    name: 'chat_site_db_query_errors_total',
    help: 'Database queries that failed',
    registers,
  });

  return {
    registry,
    httpRequestDuration,
    observeQuery(event) {
      queryDuration.observe(event.queryDurationMillis / 1000);
      if (event.level === 'error') queryErrors.inc();
    },
  };
}

/**
 * Gauges read by running something when scraped: whether every process could serve (the checks
 * of /readyz; with workers the lowest of them, so one worker that cannot serve shows), and the
 * room left for the directory store's files (the same disk for every worker: the first one's).
 * A process with nothing watched (the command line) reports neither.
 */
function healthGauges(Gauge: typeof PromClient.Gauge, registers: PromClient.Registry[]): void {
  new Gauge({
    name: 'chat_site_ready',
    help: 'Whether the server could serve now (1) or not (0): the checks of /readyz',
    aggregator: 'min',
    registers,
    async collect() {
      const probes = allWatched().flatMap((item) => (item.ready === undefined ? [] : [item.ready]));
      if (probes.length === 0) return;
      const answers = await Promise.all(probes.map((probe) => probe()));
      this.set(answers.every(Boolean) ? 1 : 0);
    },
  });
  const disk = (name: string, help: string, read: (disk: Disk) => number) =>
    new Gauge({
      name,
      help,
      aggregator: 'first',
      registers,
      async collect() {
        const measure = allWatched().find((item) => item.filesDisk !== undefined)?.filesDisk;
        // A directory not made yet (no file stored, no /readyz asked) has no room to report.
        const measured = await measure?.().catch(() => undefined);
        if (measured !== undefined) this.set(read(measured));
      },
    });
  disk(
    'chat_site_files_disk_free_bytes',
    "Bytes the directory store's file system has left for the server",
    (d) => d.freeBytes,
  );
  disk('chat_site_files_disk_size_bytes', "Size of the directory store's file system, in bytes", (d) => d.sizeBytes);
}
