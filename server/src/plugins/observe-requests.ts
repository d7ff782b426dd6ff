/**
 * Metering, the request observer and the fast path (docs/architecture.md#how-a-request-flows-through-the-server):
 * every finished request, answered by Fastify or replayed before it, goes to the one observer
 * (ops/request-observer.ts), which writes its log line and its metrics.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config.js';
import type { ContentChanges } from '../db/changes.js';
import { observeQueries, type Db } from '../db/connect.js';
import { FastPath } from '../pipeline/fast-path.js';
import { startMetering } from '../lib/metrics-registry.js';
import { watch } from '../lib/metrics.js';
import type { ReadCache } from '../pipeline/read-cache.js';
import { healthGauges } from '../ops/health-gauges.js';
import { requestObserver } from '../ops/request-observer.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Replays of cached reads, when on (pipeline/fast-path.ts). */
    fastPath?: FastPath;
  }
}

export interface ObserveOptions {
  config: ServerConfig;
  db: Db;
  cache: ReadCache;
  changes: ContentChanges;
  /** Fastify's request ids, which the replays' lines continue. */
  nextRequestId: () => string;
}

export function observeRequests(
  app: FastifyInstance,
  { config, db, cache, changes, nextRequestId }: ObserveOptions,
): void {
  const metering = config.metricsToken === undefined ? undefined : startMetering();
  if (metering !== undefined) {
    observeQueries(metering.observeQuery);
    const unwatch = watch({ cache, pool: db.pool, ...healthGauges(config, db) });
    app.addHook('onClose', async () => {
      unwatch();
    });
  }
  const observer = requestObserver({
    log: app.log as unknown as Logger,
    timed: metering?.httpRequestDuration,
    trustProxy: config.trustProxy,
    nextRequestId,
  });

  // Cached reads answered again before routing (pipeline/fast-path.ts), observed like the others.
  let fastPath: FastPath | undefined;
  if (config.readCacheMaxBytes > 0) {
    const fast = new FastPath(cache, changes, { observe: observer?.replay });
    app.decorate('fastPath', fast);
    app.addHook('preClose', (done) => {
      fast.close();
      done();
    });
    fast.install(app.server, { onSockets: config.socketReplays });
    fastPath = fast;
  }

  if (observer === undefined && fastPath === undefined) return;
  // One plain hook for both: it runs for every request Fastify answers.
  app.addHook('onResponse', (request, reply, done) => {
    observer?.reply(request, reply);
    fastPath?.record(request, reply);
    done();
  });
}
