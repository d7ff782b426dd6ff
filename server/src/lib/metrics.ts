/**
 * The server's metrics in Prometheus's text format (docs/monitoring.md#metrics). One registry per
 * process, at module level, so that a process running several apps (the tests) counts once, and
 * so that cluster workers can later hand it to prom-client's AggregatorRegistry as it is.
 *
 * What moves on a hot path is kept cheap: requests are observed from the one onResponse hook
 * (a label object each), read-cache lookups are plain number increments (readCacheCounts) turned
 * into counters only when scraped, and the database pool is read only when scraped.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { LogEvent } from 'kysely';

export const registry = new Registry();

let metering = false;

/** prom-client's gauges named like counters, which `promtool check metrics` rejects; the gauges of
 * the same name without `_total` hold the same counts by type (docs/monitoring.md#metrics). */
const countsNamedLikeCounters = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/** Turns on what costs something when nobody scrapes: Node's own metrics. Called by an app built
 * with METRICS_TOKEN; the command line and other apps never pay for them. */
export function startMetering(): void {
  if (metering) return;
  metering = true;
  collectDefaultMetrics({ register: registry });
  for (const name of countsNamedLikeCounters) registry.removeSingleMetric(name);
}

/** Seconds: from a cached answer (well under a millisecond) to a slow upload or download. */
const requestBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/** Every answer, by the route pattern the router matched (never the raw URL, so the label set
 * stays bounded; "404" when none matched), method and status. Its _count is the request count. */
export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from the request to the end of its answer, by matched route pattern, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: requestBuckets,
  registers: [registry],
});

/** Lookups in the read cache (lib/read-cache.ts), counted there with a bare increment. */
export const readCacheCounts = { hits: 0, misses: 0 };

new Counter({
  name: 'chat_site_read_cache_lookups_total',
  help: 'Public reads looked up in the read cache: hit (answered from memory) or miss (produced from the database)',
  labelNames: ['result'] as const,
  registers: [registry],
  collect() {
    this.reset();
    this.inc({ result: 'hit' }, readCacheCounts.hits);
    this.inc({ result: 'miss' }, readCacheCounts.misses);
  },
});

/** Share pictures (reach/picture/store.ts): answered from memory, or drawn. */
export const pictureCounts = { hits: 0, draws: 0 };

new Counter({
  name: 'chat_site_share_pictures_total',
  help: 'Share pictures asked for: hit (answered from memory) or drawn (made now)',
  labelNames: ['result'] as const,
  registers: [registry],
  collect() {
    this.reset();
    this.inc({ result: 'hit' }, pictureCounts.hits);
    this.inc({ result: 'drawn' }, pictureCounts.draws);
  },
});

/** Counted downloads (GET /dl/{os} answered with a redirect), by platform. */
export const downloadsTotal = new Counter({
  name: 'chat_site_downloads_total',
  help: 'Downloads sent on by /dl/{os}, by platform',
  labelNames: ['os'] as const,
  registers: [registry],
});

/** The installed apps' update checks (docs/releases.md#update-checks), by platform and by the
 * kind of client (app: the chat app's own check, tauri, electron). */
export const updateChecksTotal = new Counter({
  name: 'chat_site_update_checks_total',
  help: 'Update checks answered, by platform and client kind',
  labelNames: ['os', 'client'] as const,
  registers: [registry],
});

/** Of those, the ones told to update (electron-updater decides for itself: its checks are not
 * counted here). */
export const updateOffersTotal = new Counter({
  name: 'chat_site_update_offers_total',
  help: 'Update checks answered with a release to update to, by platform and client kind',
  labelNames: ['os', 'client'] as const,
  registers: [registry],
});

/** What the gauges below read when scraped: the read caches and database pools of this process. */
export interface Watched {
  cache?: { readonly size: number; readonly entries: number };
  pool?: { readonly totalCount: number; readonly idleCount: number; readonly waitingCount: number };
}
const watched = new Set<Watched>();

/** Reports `what` in the gauges until the function it answers is called (when its app closes). */
export function watch(what: Watched): () => void {
  watched.add(what);
  return () => watched.delete(what);
}

function sum(read: (item: Watched) => number | undefined): number {
  let total = 0;
  for (const item of watched) total += read(item) ?? 0;
  return total;
}

function gaugeOf(name: string, help: string, read: (item: Watched) => number | undefined): Gauge {
  return new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(sum(read));
    },
  });
}

gaugeOf('chat_site_read_cache_bytes', 'Bytes the read cache holds', (item) => item.cache?.size);
gaugeOf('chat_site_read_cache_entries', 'Answers the read cache holds', (item) => item.cache?.entries);
gaugeOf('chat_site_db_pool_connections', 'Database connections open (SQLite: always 1)', (i) => i.pool?.totalCount);
gaugeOf('chat_site_db_pool_idle_connections', 'Database connections open and idle', (i) => i.pool?.idleCount);
gaugeOf('chat_site_db_pool_waiting_queries', 'Queries waiting for a database connection', (i) => i.pool?.waitingCount);

/** Seconds a query took, from Kysely's log; one cached read needs none, a miss a few. */
const queryDuration = new Histogram({
  name: 'chat_site_db_query_duration_seconds',
  help: 'Time each database query took, as Kysely measures it',
  buckets: [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2.5],
  registers: [registry],
});

const queryErrors = new Counter({
  name: 'chat_site_db_query_errors_total',
  help: 'Database queries that failed',
  registers: [registry],
});

/** Handed to db/connect.ts's observeQueries by an app that is metered. */
export function observeQuery(event: LogEvent): void {
  queryDuration.observe(event.queryDurationMillis / 1000);
  if (event.level === 'error') queryErrors.inc();
}
