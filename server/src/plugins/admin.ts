/**
 * The operator's side (docs/admin-api.md#the-admin-api): the admin API under /v1/admin, for
 * scripts with the bearer token and for operators signed in to the console (accounts/door.ts),
 * and the console's own pages and files at /admin (docs/console.md).
 */
import cookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import { adminDoor } from '../accounts/door.js';
import { sessionRoutes } from '../accounts/routes.js';
import { bulletinAdminRoutes } from '../bulletins/admin-routes.js';
import { bulletinDuplicateRoute } from '../bulletins/duplicate-route.js';
import { revisionRoutes } from '../bulletins/revision-routes.js';
import { trashRoutes } from '../bulletins/trash-routes.js';
import type { Peers } from '../cluster/peers.js';
import type { ServerConfig } from '../config.js';
import { consoleRoutes } from '../console/routes.js';
import type { ContentChanges } from '../db/changes.js';
import { downloadAdminRoutes } from '../downloads/admin-routes.js';
import { fileAdminRoutes } from '../files/routes.js';
import { uploadAdminRoutes } from '../files/uploads.js';
import { declareAdminErrors, withStatusCode } from '../lib/admin-errors.js';
import { refuseUnstorableText } from '../pipeline/admin-guard.js';
import type { RouteDeps } from '../pipeline/deps.js';
import { packageAdminRoutes } from '../packages/routes.js';
import { releaseAdminRoutes } from '../packages/release-routes.js';
import { settingAdminRoutes } from '../settings/routes.js';
import { updateAdminRoutes } from '../updates/admin-routes.js';
import { rolloutRoutes } from '../updates/rollout-routes.js';

export const adminPrefix = '/v1/admin';
/** A raw URL under the admin API, for answers given before (or without) a matched route. */
const adminUrl = /^\/v1\/admin(\/|\?|$)/;
export const isAdminUrl = (url: string): boolean => adminUrl.test(url);

/**
 * Added to the /v1 context: public routes grant any origin, the admin routes none. Decided by the
 * route the router matched, never by the raw URL: `/v1/%61dmin/…` reaches the admin routes too.
 * Fixed per route when it is added, so no request pays for working it out. The admin API's
 * preflights match its own OPTIONS route (adminApi).
 */
export function keepAdminRoutesApart(api: FastifyInstance): void {
  api.addHook('onRoute', (route) => {
    // @fastify/cors reads `config.cors` of the matched route; false leaves the answer alone.
    if (route.url.startsWith(adminPrefix)) {
      route.config = { ...route.config, cors: false } as typeof route.config;
      declareAdminErrors(route);
    }
  });
}

const adminRoutes = [
  sessionRoutes,
  bulletinAdminRoutes,
  revisionRoutes,
  trashRoutes,
  bulletinDuplicateRoute,
  packageAdminRoutes,
  releaseAdminRoutes,
  updateAdminRoutes,
  rolloutRoutes,
  settingAdminRoutes,
  fileAdminRoutes,
  downloadAdminRoutes,
  uploadAdminRoutes,
];

/** The admin API, registered under /v1 with the prefix /admin; only with text the databases can
 * store exactly. */
export function adminApi(changes: ContentChanges, peers: Peers | undefined, clock?: () => Date) {
  return async (admin: FastifyInstance, { db, config, cache }: RouteDeps) => {
    await admin.register(cookie);
    admin.addHook(
      'onRequest',
      adminDoor({
        db,
        token: config.adminToken,
        maxFailures: config.adminMaxFailures,
        windowMs: config.adminFailureWindowMs,
        ...(clock !== undefined && { now: () => clock().getTime() }),
        proxyTrusted: config.trustProxy !== false,
        publicUrl: config.publicUrl,
        limits: { idleMs: config.adminSessionIdleMs, maxMs: config.adminSessionMaxMs },
      }),
    );
    admin.addHook('preHandler', refuseUnstorableText);
    // Many HTTP clients send `Content-Type: application/json` with an empty body (a DELETE, say):
    // that is no body, not malformed JSON.
    const parseJson = admin.getDefaultJsonParser('error', 'error');
    admin.removeContentTypeParser('application/json');
    admin.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if ((body as string).trim() === '') return done(null, undefined);
      void parseJson(request, body as string, done);
    });
    // Browsers' preflights for the admin API land here rather than on the public API's wildcard
    // route, so no cross-origin page is ever told it may call it.
    admin.options('/*', { config: { access: 'public' } }, async (_request, reply) => reply.status(204).send());
    // A write is committed by the time its answer is on its way: cached reads made before it go,
    // in this worker and (before the answer leaves) in every other worker of this server.
    admin.addHook('onSend', async (request, reply, payload) => {
      if (reply.statusCode >= 400) return withStatusCode(reply.statusCode, payload);
      if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) {
        changes.changed();
        await peers?.announce();
      }
      return payload;
    });
    for (const routes of adminRoutes) await admin.register(routes, { db, config, cache, clock });
  };
}

/** The console at /admin: its pages and built files, with their own CSP (console/routes.ts). */
export async function serveConsole(app: FastifyInstance, config: ServerConfig): Promise<void> {
  await app.register(consoleRoutes, { root: config.consoleRoot, site: config.site });
}
