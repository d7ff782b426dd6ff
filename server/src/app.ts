/**
 * Builds the application: plugins, routes, error handling and static files. It never listens;
 * server.ts does, and tests call the app in-process.
 */
import { existsSync } from 'node:fs';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import etag from '@fastify/etag';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type onRouteHookHandler,
} from 'fastify';
import type { DestinationStream } from 'pino';
import { bulletinAdminRoutes } from './bulletins/admin-routes.js';
import { revisionRoutes } from './bulletins/revision-routes.js';
import { trashRoutes } from './bulletins/trash-routes.js';
import { bulletinDuplicateRoute } from './bulletins/duplicate-route.js';
import { bulletinRoutes } from './bulletins/routes.js';
import { watchSchedule, type Schedule } from './bulletins/schedule.js';
import type { ServerConfig } from './config.js';
import { watchContentChanges, type ContentChanges } from './db/changes.js';
import { observeQueries, type Db } from './db/connect.js';
import { downloadRoutes } from './downloads/routes.js';
import { fileRoutes } from './files/preview-routes.js';
import { fileAdminRoutes } from './files/routes.js';
import { uploadAdminRoutes } from './files/uploads.js';
import { downloadAdminRoutes } from './downloads/admin-routes.js';
import type { RouteDeps } from './lib/deps.js';
import type { Peers } from './cluster/peers.js';
import { FastPath } from './lib/fast-path.js';
import type { Logger } from 'pino';
import {
  clientAddress,
  logDestination,
  requestIds,
  requestLine,
  roundedMs,
  trustedProxies,
} from './lib/request-log.js';
import { ReadCache } from './lib/read-cache.js';
import { apiSecurityHeaders, isApiUrl, securityHeaders } from './lib/security-headers.js';
import { packageAdminRoutes, packageRoutes } from './packages/routes.js';
import { releaseAdminRoutes } from './packages/release-routes.js';
import { pageRoutes } from './page/routes.js';
import { updateAdminRoutes } from './updates/admin-routes.js';
import { updateRoutes } from './updates/routes.js';
import { pictureRoutes } from './reach/picture/routes.js';
import { reachRoutes } from './reach/routes.js';
import { settingAdminRoutes, settingRoutes } from './settings/routes.js';
import { validatorCompiler } from './lib/validation.js';
import { refuseUnstorableText } from './lib/admin-guard.js';
import { adminDoor } from './accounts/door.js';
import { sessionRoutes } from './accounts/routes.js';
import { consoleRoutes } from './console/routes.js';
import { AggregatorRegistry } from 'prom-client';
import { observeQuery, registry, startMetering, watch } from './lib/metrics.js';
import { healthRoutes } from './ops/health.js';
import { metricsRoute, observeReplay, observeRequest } from './ops/metrics.js';
import { apiDocsRoutes, openApiRoute, registerOpenApi } from './ops/openapi.js';
import { storageFor } from './storage/index.js';
import { adminRefusal, declareAdminErrors, withStatusCode } from './lib/admin-errors.js';

const adminPrefix = '/v1/admin';
/** A raw URL under the admin API, for answers given before (or without) a matched route. */
const adminUrl = /^\/v1\/admin(\/|\?|$)/;

declare module 'fastify' {
  interface FastifyInstance {
    /** The public reads held in memory, for what watches the server (tests, metrics). */
    readCache: ReadCache;
    /** Tells when published content may have changed (db/changes.ts). */
    contentChanges: ContentChanges;
    /** Replays of cached reads, when on (lib/fast-path.ts). */
    fastPath?: FastPath;
    /** The schedule check (bulletins/schedule.ts): tests run it with a clock of their own. */
    schedule: Schedule;
  }
}

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
  const nextRequestId = requestIds();
  const app = Fastify({
    logger: {
      level: config.logLevel,
      stream: logStream ?? (config.logLevel === 'silent' ? undefined : logDestination()),
    },
    logController: new LogController({ disableRequestLogging: true }),
    // Shared with the fast path's log lines (lib/request-log.ts).
    genReqId: nextRequestId,
    trustProxy: trustedProxies(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // A client that is slow to send its headers, or its whole request, gets 408 and is cut off.
    // Node checks for them every connectionsCheckingInterval, so that follows the timeouts.
    requestTimeout: config.requestTimeoutMs,
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.ceil(config.headersTimeoutMs / 4)),
    },
    // Errors Node finds before Fastify has a request (timeouts, malformed HTTP, headers too
    // large) are answered with the same {status, msg} as every other error.
    clientErrorHandler: (error: NodeJS.ErrnoException, socket) => {
      const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
      if (error.code !== 'ECONNRESET' && socket.writable && !socket.destroyed) {
        const body = JSON.stringify({ status, msg: STATUS_CODES[status] ?? 'Bad Request' });
        socket.write(
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
      }
      socket.destroy();
    },
    // Alone, a stopping server answers a request still arriving with 503 {status, msg}
    // (refuseWhileClosing, below). One worker of several serves on while it stops, each answer
    // closing its connection, so the client's next request reaches another worker (server.ts
    // drains it).
    return503OnClosing: false,
    // Malformed URLs and over-long path parameters get the same {status, msg} as every error.
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode ?? 400;
      void (reply as FastifyReply).status(status).send({ status, msg: error.message });
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  if (onRoute !== undefined) app.addHook('onRoute', onRoute);
  const changes = watchContentChanges(db, app.log);
  peers?.onChange(() => changes.changed());
  const schedule = watchSchedule(db.kysely, changes, app.log, clock);
  app.decorate('schedule', schedule);
  app.addHook('onClose', async () => {
    schedule.stop();
    await changes.close();
  });
  const deps: RouteDeps = { db, config, cache: new ReadCache({ changes, maxBytes: config.readCacheMaxBytes }) };
  app.decorate('readCache', deps.cache);
  app.decorate('contentChanges', changes);
  await registerOpenApi(app);

  registerErrorHandling(app);
  if (peers === undefined) refuseWhileClosing(app);
  // Requests are timed only when something scrapes them (METRICS_TOKEN set).
  const metered = config.metricsToken !== undefined;
  if (metered) {
    startMetering();
    observeQueries(observeQuery);
    const unwatch = watch({ cache: deps.cache, pool: db.pool });
    app.addHook('onClose', async () => {
      unwatch();
    });
  }
  // One line per request, built only when it is written: at LOG_LEVEL=warn it costs nothing.
  const line = requestLine(app.log as unknown as Logger);
  const ipOf = clientAddress(config.trustProxy);
  if (metered || line !== undefined) {
    app.addHook('onResponse', (request, reply, done) => {
      if (metered) observeRequest(request, reply);
      line?.(request.id, request.method, request.url, reply.statusCode, roundedMs(reply.elapsedTime), request.ip);
      done();
    });
  }

  // Cached reads answered again before routing (lib/fast-path.ts), logged and metered as above.
  if (config.readCacheMaxBytes > 0) {
    const observe =
      metered || line !== undefined
        ? (req: IncomingMessage, status: number, route: string, ms: number) => {
            const method = req.method ?? '';
            if (metered) observeReplay(route, method, status, ms);
            line?.(nextRequestId(), method, req.url ?? '', status, roundedMs(ms), ipOf(req));
          }
        : undefined;
    const fastPath = new FastPath(deps.cache, changes, { observe });
    app.decorate('fastPath', fastPath);
    app.addHook('onResponse', (request, reply, done) => {
      fastPath.record(request, reply);
      done();
    });
    app.addHook('preClose', (done) => {
      fastPath.close();
      done();
    });
    fastPath.install(app.server);
  }

  // Helmet's headers and the permissions policy, set from objects made at start, a smaller one
  // for the JSON API (lib/security-headers.ts). Routes that need another CSP set theirs later.
  const documentSecurity = securityHeaders({ behindTls: config.behindTls });
  const apiSecurity = apiSecurityHeaders({ behindTls: config.behindTls });
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiUrl(request.url) ? apiSecurity : documentSecurity);
    done();
  });
  await app.register(etag, { weak: true });
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    // Quality 4 keeps dynamic answers fast; hashed assets are compressed ahead of time at build.
    brotliOptions: { params: { [(await import('node:zlib')).constants.BROTLI_PARAM_QUALITY]: 4 } },
  });

  await app.register(
    async (api) => {
      // Public routes grant any origin; the admin routes none. Decided by the route the router
      // matched, never by the raw URL: `/v1/%61dmin/…` reaches the admin routes too. Fixed per
      // route when it is added, so no request pays for working it out. The admin API's
      // preflights match its own OPTIONS route below.
      api.addHook('onRoute', (route) => {
        // @fastify/cors reads `config.cors` of the matched route; false leaves the answer alone.
        if (route.url.startsWith(adminPrefix)) {
          route.config = { ...route.config, cors: false } as typeof route.config;
          declareAdminErrors(route);
        }
      });
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
        await api.register(routes, deps);
      await api.register(openApiRoute);
      if (extraApiRoutes !== undefined) await api.register(extraApiRoutes);
      await api.register(adminApi(changes, peers, clock), { ...deps, prefix: '/admin' });
    },
    { prefix: '/v1' },
  );

  await app.register(healthRoutes, { db, storage: storageFor(config.storage) });
  if (config.metricsToken !== undefined) {
    // With workers, a scrape reaches one of them; it answers for all (docs/monitoring.md#metrics).
    if (peers !== undefined) {
      // Constructing one is what makes prom-client answer the supervisor's requests in a worker.
      new AggregatorRegistry();
      AggregatorRegistry.setRegistries([registry]);
    }
    await app.register(metricsRoute, {
      token: config.metricsToken,
      ...(peers !== undefined && { collect: () => peers.metrics() }),
    });
  }
  await app.register(apiDocsRoutes);

  await app.register(consoleRoutes, { root: config.consoleRoot, site: config.site });
  await app.register(downloadRoutes, deps);
  await app.register(pageRoutes, deps);
  await app.register(reachRoutes, deps);
  await app.register(pictureRoutes, deps);
  if (existsSync(config.webRoot)) {
    // The service worker (web/build/service-worker.ts) is checked on every visit, so a new build
    // takes over at once; its own CSP must let it fetch the site's files to precache them.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (isServiceWorker(request.url) && request.method === 'GET' && reply.statusCode === 200) {
        reply
          .header('cache-control', 'no-cache')
          .header('content-type', 'text/javascript; charset=utf-8')
          .header('content-security-policy', "default-src 'none'; connect-src 'self'; frame-ancestors 'none'");
      }
      done(null, payload);
    });
    await app.register(fastifyStatic, {
      root: config.webRoot,
      index: false,
      preCompressed: true,
      cacheControl: false,
      // The bare pages of the other languages (index.en.html …) are templates: the page routes
      // send them filled in, at / (page/routes.ts).
      allowedPath: (path) => !/^\/index\.[\w-]+\.html$/.test(path),
      setHeaders: (res, path) => {
        const hashed = /[/\\]assets[/\\]/.test(path);
        res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      },
    });
  }
  return app;
}

/**
 * Once the server is closing, a request that still arrives on an open connection (the next one on
 * a kept-alive connection whose answer was in flight) gets a 503 with `Connection: close` (which
 * Fastify adds while closing), and a proxy sends it to another server
 * (docs/scaling.md#several-servers-on-one-postgresql).
 */
function refuseWhileClosing(app: FastifyInstance): void {
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

/** `/sw.js`, with or without a query. */
function isServiceWorker(url: string): boolean {
  return url === '/sw.js' || url.startsWith('/sw.js?');
}

function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status =
      error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    const msg = status >= 500 ? 'internal server error' : error.message;
    // Only the admin API's answers carry a code and field: the public wire is fixed.
    const admin = request.routeOptions.url?.startsWith(`${adminPrefix}/`) ?? adminUrl.test(request.url);
    return reply.status(status).send({ status, msg, ...(admin && adminRefusal(error, status, request)) });
  });
  app.setNotFoundHandler((request, reply) => {
    const msg = request.url.startsWith('/v1/')
      ? `no such endpoint: ${request.method} ${request.url.split('?')[0]}`
      : 'not found';
    return reply.status(404).send({ status: 404, msg, ...(adminUrl.test(request.url) && { code: 'not_found' }) });
  });
}

/** The operator's API: for scripts with the bearer token, and for operators signed in to the
 * console (accounts/door.ts); only with text the databases can store exactly. */
function adminApi(changes: ContentChanges, peers: Peers | undefined, clock: BuildOptions['clock']) {
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
    const routes = [
      sessionRoutes,
      bulletinAdminRoutes,
      revisionRoutes,
      trashRoutes,
      bulletinDuplicateRoute,
      packageAdminRoutes,
      releaseAdminRoutes,
      updateAdminRoutes,
      settingAdminRoutes,
      fileAdminRoutes,
      downloadAdminRoutes,
    ];
    for (const route of routes) await admin.register(route, { db, config, cache });
    await admin.register(uploadAdminRoutes, { db, config, cache });
  };
}
