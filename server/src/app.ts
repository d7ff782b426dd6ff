/**
 * Builds the application as a list of plugins, in the order they apply (docs/architecture.md#the-server-module-map).
 * It never listens; serving.ts does, and tests call the app in-process.
 */
import type { FastifyInstance, onRouteHookHandler } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Peers } from './cluster/peers.js';
import type { ServerConfig } from './config.js';
import type { Db } from './db/connect.js';
import { inAppRoutes } from './downloads/in-app-routes.js';
import { downloadRoutes } from './downloads/routes.js';
import { requestIds } from './pipeline/request-log.js';
import { registerOpenApi } from './ops/openapi.js';
import { pageRoutes } from './page/routes.js';
import { serveConsole } from './plugins/admin.js';
import { watchContent } from './plugins/content.js';
import { answerErrors, refuseWhileClosing } from './plugins/errors.js';
import { observeRequests } from './plugins/observe-requests.js';
import { opsRoutes } from './plugins/ops.js';
import { publicApi } from './plugins/public-api.js';
import { everyResponse } from './plugins/responses.js';
import { createFastify } from './plugins/server-options.js';
import { serveStaticFiles } from './plugins/static-files.js';
import { pictureRoutes } from './reach/picture/routes.js';
import { reachRoutes } from './reach/routes.js';

export interface BuildOptions {
  config: ServerConfig;
  db: Db;
  /** More public routes under /v1/, with its CORS and caching rules (the API benchmark's ceiling). */
  extraApiRoutes?: (api: FastifyInstance) => Promise<void>;
  /** Sees every route as it is added (the test that every route is documented). */
  onRoute?: onRouteHookHandler;
  /** The other workers of this server, when it runs several (cluster/peers.ts). */
  peers?: Peers;
  /** Where the log goes instead of standard output (tests that read the request lines). */
  logStream?: DestinationStream;
  /** The clock of the schedule check and of the admin door's failure window; tests move it
   * instead of waiting. */
  clock?: () => Date;
}

export async function buildApp({
  config,
  db,
  extraApiRoutes,
  onRoute,
  peers,
  logStream,
  clock,
}: BuildOptions): Promise<FastifyInstance> {
  // One counter for Fastify's request ids and the fast path's (pipeline/request-log.ts).
  const nextRequestId = requestIds();
  const app = createFastify(config, { logStream, genReqId: nextRequestId });
  if (onRoute !== undefined) app.addHook('onRoute', onRoute);
  const deps = watchContent(app, { db, config, peers, clock });
  registerOpenApi(app);
  answerErrors(app);
  if (peers === undefined) refuseWhileClosing(app);
  observeRequests(app, { config, db, cache: deps.cache, changes: app.contentChanges, nextRequestId });
  await everyResponse(app, config);

  await app.register(publicApi, { ...deps, changes: app.contentChanges, peers, extraApiRoutes, clock, prefix: '/v1' });
  await opsRoutes(app, { config, db, peers });
  await serveConsole(app, config);
  for (const routes of [downloadRoutes, inAppRoutes, pageRoutes, reachRoutes, pictureRoutes])
    await app.register(routes, deps);
  await serveStaticFiles(app, config);
  return app;
}
