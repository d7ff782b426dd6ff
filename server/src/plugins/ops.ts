/**
 * The operator's probes beside the site (docs/monitoring.md#health-checks): /healthz and /readyz,
 * /metrics with METRICS_TOKEN (docs/monitoring.md#metrics), and the API reference /api-docs.
 */
import type { FastifyInstance } from 'fastify';
import type { Peers } from '../cluster/peers.js';
import type { ServerConfig } from '../config.js';
import type { Db } from '../db/connect.js';
import { loadPromClient, processMetrics } from '../lib/metrics-registry.js';
import { healthRoutes } from '../ops/health.js';
import { metricsRoute } from '../ops/metrics.js';
import { apiDocsRoutes } from '../ops/openapi.js';
import { storageFor } from '../storage/index.js';

export async function opsRoutes(
  app: FastifyInstance,
  { config, db, peers }: { config: ServerConfig; db: Db; peers?: Peers },
): Promise<void> {
  await app.register(healthRoutes, { db, storage: storageFor(config.storage), peers });
  if (config.metricsToken !== undefined) {
    // With workers, a scrape reaches one of them; it answers for all (docs/monitoring.md#metrics).
    if (peers !== undefined) {
      // Constructing one is what makes prom-client answer the supervisor's requests in a worker.
      const { AggregatorRegistry } = loadPromClient();
      new AggregatorRegistry();
      AggregatorRegistry.setRegistries([processMetrics().registry]);
    }
    await app.register(metricsRoute, {
      token: config.metricsToken,
      ...(peers !== undefined && { collect: () => peers.metrics() }),
    });
  }
  await app.register(apiDocsRoutes);
}
