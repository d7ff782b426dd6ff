/**
 * `GET /metrics` for a Prometheus scraper with METRICS_TOKEN, and the route label every answer is
 * timed by (ops/request-observer.ts; docs/monitoring.md#metrics). With no METRICS_TOKEN /metrics
 * is a 404 like any unknown path, and requests are not timed.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bearerTokenChecker } from '../pipeline/admin-guard.js';
import { processMetrics } from '../lib/metrics-registry.js';

/** The route label of a request: the pattern the router matched, "404" when none did. */
export function routeLabel(request: FastifyRequest): string {
  return request.is404 ? '404' : (request.routeOptions.url ?? '404');
}

/** `collect` gives the text to send: this process's registry, or with workers every worker's
 * added up by the supervisor (cluster/peers.ts). */
export async function metricsRoute(
  app: FastifyInstance,
  { token, collect }: { token: string; collect?: () => Promise<string> },
): Promise<void> {
  const { registry } = processMetrics();
  const text = collect ?? (() => registry.metrics());
  const check = bearerTokenChecker(token);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (check(request.headers.authorization) !== 'valid') {
      return reply.status(401).header('www-authenticate', 'Bearer').send({ status: 401, msg: 'unauthorized' });
    }
    return reply.header('content-type', registry.contentType).send(await text());
  });
}
