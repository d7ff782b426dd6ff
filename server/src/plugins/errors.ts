/**
 * Every error is answered `{status, msg}`, hiding internals on 5xx; the admin API's add a code and
 * field (docs/public-api.md#errors). And a server stopping alone refuses what still arrives.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { adminRefusal } from '../lib/admin-errors.js';
import { adminPrefix, isAdminUrl } from './admin.js';

export function answerErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status =
      error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    const msg = status >= 500 ? 'internal server error' : error.message;
    // Only the admin API's answers carry a code and field: the public wire is fixed.
    const admin = request.routeOptions.url?.startsWith(`${adminPrefix}/`) ?? isAdminUrl(request.url);
    return reply.status(status).send({ status, msg, ...(admin && adminRefusal(error, status, request)) });
  });
  app.setNotFoundHandler((request, reply) => {
    const msg = request.url.startsWith('/v1/')
      ? `no such endpoint: ${request.method} ${request.url.split('?')[0]}`
      : 'not found';
    return reply.status(404).send({ status: 404, msg, ...(isAdminUrl(request.url) && { code: 'not_found' }) });
  });
}

/**
 * Once the server is closing, a request that still arrives on an open connection (the next one on
 * a kept-alive connection whose answer was in flight) gets a 503 with `Connection: close` (which
 * Fastify adds while closing), and a proxy sends it to another server
 * (docs/scaling.md#several-servers-on-one-postgresql).
 */
export function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // A plain (not async) hook: it runs for every request, and usually only looks at a boolean.
  app.addHook('onRequest', (_request, reply, done) => {
    if (closing) void reply.status(503).send({ status: 503, msg: 'the server is stopping' });
    else done();
  });
}
