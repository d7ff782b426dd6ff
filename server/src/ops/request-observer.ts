/**
 * The one place a finished request is logged and metered (docs/monitoring.md#logs,
 * docs/monitoring.md#metrics). Fastify's onResponse hook and the fast path's replays
 * (pipeline/fast-path.ts) both end here, so a reply and its replay give the same line and the same
 * count (docs/architecture.md#how-a-request-flows-through-the-server).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config.js';
import type { ReplayObserver } from '../pipeline/fast-path.js';
import type { RequestHead } from '../pipeline/replay-connections.js';
import type { Metrics } from '../lib/metrics-registry.js';
import { clientAddress, requestLine, roundedMs } from '../pipeline/request-log.js';
import { routeLabel } from './metrics.js';

export interface RequestObserver {
  /** For Fastify's onResponse hook. */
  reply(request: FastifyRequest, reply: FastifyReply): void;
  /** For a reply the fast path sent without Fastify. */
  replay: ReplayObserver;
}

export interface ObserverOptions {
  log: Logger;
  /** Requests are timed only when something scrapes them (METRICS_TOKEN set). */
  timed: Metrics['httpRequestDuration'] | undefined;
  trustProxy: ServerConfig['trustProxy'];
  /** The counter Fastify takes its request ids from, for the replays' lines. */
  nextRequestId: () => string;
}

/** The observer, or undefined when neither the log level writes the line nor metrics are on. */
export function requestObserver({
  log,
  timed,
  trustProxy,
  nextRequestId,
}: ObserverOptions): RequestObserver | undefined {
  // Built only when it is written: at LOG_LEVEL=warn the line costs nothing.
  const line = requestLine(log);
  if (timed === undefined && line === undefined) return undefined;
  // The address as Fastify's `request.ip` works it out, for both ways a reply goes.
  const ipOf = clientAddress(trustProxy);

  /** `request` is Fastify's, or undefined for a replay, whose route the fast path recorded. */
  function finished(raw: RequestHead, status: number, ms: number, request?: FastifyRequest, route = ''): void {
    const method = raw.method ?? '';
    if (timed !== undefined) {
      const label = request === undefined ? route : routeLabel(request);
      timed.observe({ route: label, method, status }, ms / 1000);
    }
    line?.(request?.id ?? nextRequestId(), method, raw.url ?? '', status, roundedMs(ms), ipOf(raw));
  }

  return {
    reply: (request, reply) => finished(request.raw, reply.statusCode, reply.elapsedTime, request),
    replay: (req, status, route, ms) => finished(req, status, ms, undefined, route),
  };
}
