/**
 * What the server counts for its metrics (docs/monitoring.md#metrics), without prom-client: plain
 * numbers at module level, one set per process, so that a process running several apps (the
 * tests) counts once. lib/metrics-registry.ts turns them into Prometheus series when an app with
 * METRICS_TOKEN builds its registry; a worker without one never loads prom-client
 * (docs/performance.md#footprint).
 *
 * What moves on a hot path is kept cheap: a count is a number increment, turned into a counter
 * only when scraped, and the read caches and database pools are read only when scraped.
 */

/** Lookups in the read cache (pipeline/read-cache.ts), counted there with a bare increment. */
export const readCacheCounts = { hits: 0, misses: 0 };

/** Share pictures (reach/picture/store.ts): answered from memory, or drawn. */
export const pictureCounts = { hits: 0, draws: 0 };

/** Share pictures refused (reach/picture/routes.ts): the drawing queue was full, or the client
 * had used its budget of draws. */
export const pictureRefusals = { queueFull: 0, clientBudget: 0 };

/** Counts by label values, in the order each combination was first counted (as prom-client's
 * own counters list their series). */
export class LabelledCounts<Label extends string> {
  readonly #counts = new Map<string, { labels: Record<Label, string>; count: number }>();

  inc(labels: Record<Label, string>): void {
    const key = JSON.stringify(labels);
    const entry = this.#counts.get(key);
    if (entry === undefined) this.#counts.set(key, { labels, count: 1 });
    else entry.count++;
  }

  entries(): Iterable<{ labels: Record<Label, string>; count: number }> {
    return this.#counts.values();
  }
}

/** Counted downloads (GET /dl/{os} answered with a redirect), by platform. */
export const downloadsTotal = new LabelledCounts<'os'>();

/** The installed apps' update checks (docs/releases.md#update-checks), by platform and by the
 * kind of client (app: the chat app's own check, tauri, electron). */
export const updateChecksTotal = new LabelledCounts<'os' | 'client'>();

/** Of those, the ones told to update (electron-updater decides for itself: its checks are not
 * counted here). */
export const updateOffersTotal = new LabelledCounts<'os' | 'client'>();

/** A file system's room, in bytes. */
export interface Disk {
  freeBytes: number;
  sizeBytes: number;
}

/** What the gauges read when scraped: the read caches and database pools of this process, and
 * its health (ops/health-gauges.ts). */
export interface Watched {
  cache?: { readonly size: number; readonly entries: number };
  pool?: { readonly totalCount: number; readonly idleCount: number; readonly waitingCount: number };
  /** Whether the process could serve now: the checks of /readyz. */
  ready?: () => Promise<boolean>;
  /** The file system of the directory store (none for S3). */
  filesDisk?: () => Promise<Disk>;
}
const watched = new Set<Watched>();

/** Reports `what` in the gauges until the function it answers is called (when its app closes). */
export function watch(what: Watched): () => void {
  watched.add(what);
  return () => watched.delete(what);
}

/** Everything watched now: the health gauges read each in turn. */
export function allWatched(): Watched[] {
  return [...watched];
}

/** The sum over everything watched, for a gauge. */
export function sumWatched(read: (item: Watched) => number | undefined): number {
  let total = 0;
  for (const item of watched) total += read(item) ?? 0;
  return total;
}
