/**
 * Builds the application: plugins, routes, error handling and static files. It never listens;
 * server.ts does, and tests call the app in-process.
 */
import { existsSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import etag from '@fastify/etag';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { bulletinAdminRoutes } from './bulletins/admin-routes.js';
import { bulletinRoutes } from './bulletins/routes.js';
import { watchSchedule } from './bulletins/schedule.js';
import type { ServerConfig } from './config.js';
import { watchContentChanges, type ContentChanges } from './db/changes.js';
import type { Db } from './db/connect.js';
import { downloadRoutes } from './downloads/routes.js';
import { fileAdminRoutes, fileRoutes } from './files/routes.js';
import type { RouteDeps } from './lib/deps.js';
import type { Peers } from './cluster/peers.js';
import { ReadCache } from './lib/read-cache.js';
import { securityHeaders } from './lib/security-headers.js';
import { packageAdminRoutes, packageRoutes } from './packages/routes.js';
import { pageRoutes } from './page/routes.js';
import { reachRoutes } from './reach/routes.js';
import { settingAdminRoutes, settingRoutes } from './settings/routes.js';
import { validatorCompiler } from './lib/validation.js';
import { refuseUnstorableText } from './lib/admin-guard.js';
import { adminDoor } from './accounts/door.js';
import { sessionRoutes } from './accounts/routes.js';

const adminPrefix = '/v1/admin';

declare module 'fastify' {
  interface FastifyInstance {
    /** The public reads held in memory, for what watches the server (tests, metrics). */
    readCache: ReadCache;
  }
}

export interface BuildOptions {
  config: ServerConfig;
  db: Db;
  /** More public routes under /v1/, with its CORS and caching rules (the API benchmark's ceiling). */
  extraApiRoutes?: (api: FastifyInstance) => Promise<void>;
  /** The other workers of this server, when it runs several (cluster/peers.ts). */
  peers?: Peers;
}

export async function buildApp({ config, db, extraApiRoutes, peers }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    logController: new LogController({ disableRequestLogging: true }),
    // A hop count believes only the addresses the operator's own proxies appended; never `true`,
    // which would believe whatever a client wrote into X-Forwarded-For.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
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
    // Alone, a stopping server answers 503: nobody else will. One worker of several serves on
    // while it stops, each answer closing its connection, so the client's next request reaches
    // another worker (server.ts drains it).
    return503OnClosing: peers === undefined,
    // Malformed URLs and over-long path parameters get the same {status, msg} as every error.
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode ?? 400;
      void (reply as FastifyReply).status(status).send({ status, msg: error.message });
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  const changes = watchContentChanges(db, app.log);
  peers?.onChange(() => changes.changed());
  const stopSchedule = watchSchedule(db.kysely, changes, app.log);
  app.addHook('onClose', async () => {
    stopSchedule();
    await changes.close();
  });
  const deps: RouteDeps = { db, config, cache: new ReadCache({ changes, maxBytes: config.readCacheMaxBytes }) };
  app.decorate('readCache', deps.cache);

  registerErrorHandling(app);
  // One line per request, built only when it is written: at LOG_LEVEL=warn it costs nothing.
  if (['info', 'debug', 'trace'].includes(config.logLevel)) {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        {
          method: request.method,
          url: request.url,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
          ip: request.ip,
        },
        'request',
      );
      done();
    });
  }

  // Helmet's headers and the permissions policy, the same for every answer: set from one object
  // made at start (lib/security-headers.ts). Routes that need another CSP set theirs later.
  const security = securityHeaders({ behindTls: config.behindTls });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(security);
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
        if (route.url.startsWith(adminPrefix)) route.config = { ...route.config, cors: false } as typeof route.config;
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
      for (const routes of [settingRoutes, bulletinRoutes, packageRoutes, fileRoutes]) await api.register(routes, deps);
      if (extraApiRoutes !== undefined) await api.register(extraApiRoutes);
      await api.register(adminApi(changes, peers), { ...deps, prefix: '/admin' });
    },
    { prefix: '/v1' },
  );

  app.get('/healthz', async (_request, reply) => {
    try {
      await db.kysely.selectNoFrom((eb) => eb.lit(1).as('ok')).execute();
      return reply.header('cache-control', 'no-store').send({ status: 'ok' });
    } catch (error) {
      app.log.error({ err: error }, 'health check failed');
      return reply.status(503).header('cache-control', 'no-store').send({ status: 503, msg: 'database unavailable' });
    }
  });

  await app.register(downloadRoutes, deps);
  await app.register(pageRoutes, deps);
  await app.register(reachRoutes, deps);
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
    return reply.status(status).send({ status, msg });
  });
  app.setNotFoundHandler((request, reply) => {
    const msg = request.url.startsWith('/v1/')
      ? `no such endpoint: ${request.method} ${request.url.split('?')[0]}`
      : 'not found';
    return reply.status(404).send({ status: 404, msg });
  });
}

/** The operator's API: for scripts with the bearer token, and for operators signed in to the
 * console (accounts/door.ts); only with text the databases can store exactly. */
function adminApi(changes: ContentChanges, peers: Peers | undefined) {
  return async (admin: FastifyInstance, { db, config, cache }: RouteDeps) => {
    await admin.register(cookie);
    admin.addHook(
      'onRequest',
      adminDoor({
        db,
        token: config.adminToken,
        maxFailures: config.adminMaxFailures,
        windowMs: config.adminFailureWindowMs,
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
      parseJson(request, body as string, done);
    });
    // Browsers' preflights for the admin API land here rather than on the public API's wildcard
    // route, so no cross-origin page is ever told it may call it.
    admin.options('/*', { config: { access: 'public' } }, async (_request, reply) => reply.status(204).send());
    // A write is committed by the time its answer is on its way: cached reads made before it go,
    // in this worker and (before the answer leaves) in every other worker of this server.
    admin.addHook('onSend', async (request, reply, payload) => {
      if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) {
        changes.changed();
        await peers?.announce();
      }
      return payload;
    });
    const routes = [sessionRoutes, bulletinAdminRoutes, packageAdminRoutes, settingAdminRoutes, fileAdminRoutes];
    for (const route of routes) await admin.register(route, { db, config, cache });
  };
}
