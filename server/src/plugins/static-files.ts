/**
 * The built site's files from WEB_ROOT (docs/architecture.md#how-a-page-load-flows): hashed assets
 * cached for a year, the rest for an hour, and the service worker checked on every visit.
 */
import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config.js';

/** `/sw.js`, with or without a query. */
function isServiceWorker(url: string): boolean {
  return url === '/sw.js' || url.startsWith('/sw.js?');
}

export async function serveStaticFiles(app: FastifyInstance, config: ServerConfig): Promise<void> {
  if (!existsSync(config.webRoot)) return;
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
