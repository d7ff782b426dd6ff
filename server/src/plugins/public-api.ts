/**
 * Everything under /v1 (docs/public-api.md#the-public-api): the public routes with CORS for any
 * origin and `no-cache` on GETs, the OpenAPI document, and the admin API beside them (admin.ts).
 */
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { bulletinRoutes } from '../bulletins/routes.js';
import type { Peers } from '../cluster/peers.js';
import type { ContentChanges } from '../db/changes.js';
import { fileRoutes } from '../files/preview-routes.js';
import type { RouteDeps } from '../pipeline/deps.js';
import { openApiRoute } from '../ops/openapi.js';
import { packageRoutes } from '../packages/routes.js';
import { settingRoutes } from '../settings/routes.js';
import { updateRoutes } from '../updates/routes.js';
import { adminApi, keepAdminRoutesApart } from './admin.js';

export interface PublicApiOptions extends RouteDeps {
  changes: ContentChanges;
  peers?: Peers;
  /** More public routes, under the same CORS and caching rules (the API benchmark's ceiling). */
  extraApiRoutes?: (api: FastifyInstance) => Promise<void>;
  /** The admin door's clock for its failure window; tests move it instead of waiting. */
  clock?: () => Date;
}

/** Registered with the prefix /v1. */
export async function publicApi(
  api: FastifyInstance,
  { db, config, cache, changes, peers, extraApiRoutes, clock }: PublicApiOptions,
): Promise<void> {
  // Only these: the options Fastify hands a plugin also carry its prefix.
  const deps: RouteDeps = { db, config, cache };
  keepAdminRoutesApart(api);
  // Every /v1 answer varies by Origin, as the CORS plugin's per-request options made it.
  api.addHook('onRequest', (_request, reply, done) => {
    reply.header('vary', 'Origin');
    done();
  });
  // A half-formed preflight is answered like any other, not with a plain-text 400.
  await api.register(cors, { hook: 'onRequest', origin: '*', maxAge: 86_400, strictPreflight: false });
  api.addHook('onSend', (request, reply, payload, done) => {
    if (request.method === 'GET' && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-cache');
    done(null, payload);
  });
  for (const routes of [settingRoutes, bulletinRoutes, packageRoutes, fileRoutes, updateRoutes])
    await api.register(routes, { ...deps, clock });
  await api.register(openApiRoute);
  if (extraApiRoutes !== undefined) await api.register(extraApiRoutes);
  await api.register(adminApi(changes, peers, clock), { ...deps, prefix: '/admin' });
}
