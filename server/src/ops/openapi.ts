/**
 * The API described as an OpenAPI 3.1 document, made by @fastify/swagger from the routes' own
 * TypeBox schemas, served at /v1/openapi.json; and a reference page for people at /api-docs,
 * Swagger UI served from the server's own node_modules (docs/admin-api.md#api-documentation).
 * The document is made at its first request, on a Fastify instance of its own that is given every
 * route's options, so that no worker loads @fastify/swagger and its YAML writer to start
 * (docs/memory.md#the-api-document).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { sessionCookie } from '../accounts/door.js';
import { describeOperation } from './openapi-operations.js';

/** Both ways into the admin API (docs/behaviour.md#operator-accounts). */
const securitySchemes = {
  adminToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'ADMIN_TOKEN, for scripts: an admin on every call. An Authorization header is checked even beside a session cookie.',
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: sessionCookie,
    description:
      'The console session that POST /v1/admin/session sets. A call that changes something must also send an ' +
      "Origin header naming the console's own origin. An editor's session reaches announcements, pictures and " +
      'its own session; every other call needs an admin account.',
  },
} as const;

declare module 'fastify' {
  interface FastifyInstance {
    /** The OpenAPI document of every route, made at the first call. */
    openApiDocument(): Promise<string>;
  }
}

/** Collects every route as it is added, so call it before any route; the document is made from
 * them at the first call of `app.openApiDocument()`. */
export function registerOpenApi(app: FastifyInstance): void {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  let made: Promise<string> | undefined;
  app.decorate('openApiDocument', () => {
    if (made === undefined) {
      made = makeDocument(routes);
      made.then(
        // Kept as made: the routes' options are not needed again.
        () => routes.splice(0),
        // A failure (a broken install) is tried again at the next request, not kept.
        () => {
          made = undefined;
        },
      );
    }
    return made;
  });
}

async function makeDocument(routes: readonly RouteOptions[]): Promise<string> {
  const [{ default: fastify }, { default: swagger }] = await Promise.all([
    import('fastify'),
    import('@fastify/swagger'),
  ]);
  // The routes as they are, HEAD ones included; nothing here answers a request, so nothing
  // validates or serialises.
  const maker = fastify({ exposeHeadRoutes: false });
  try {
    maker.setValidatorCompiler(() => () => true);
    maker.setSerializerCompiler(() => (data) => JSON.stringify(data));
    await maker.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Chat site API',
          version: '1',
          description:
            'The public API the site and the apps read, the admin API, the download links, feeds and health checks. ' +
            'Errors are JSON {status, msg}. Besides the answers each call lists, any call may answer 500 ' +
            '(an unexpected failure, details only in the log) or 503 (the server is stopping; try another).',
        },
        // Relative: the document describes whichever server serves it.
        servers: [{ url: '/', description: 'This server' }],
        components: { securitySchemes },
        tags: [
          { name: 'public', description: 'Public reads, CORS for any origin' },
          { name: 'admin', description: 'The operator API: ADMIN_TOKEN or a console session' },
          { name: 'site', description: 'The page, download links, feeds, share pages and search engine files' },
          { name: 'health', description: 'For load balancers and orchestrators' },
        ],
      },
      // const is OpenAPI 3.1's own; the contract's literals stay literals.
      convertConstToEnum: false,
      transform: ({ schema, url, route }) => ({ schema: describeOperation(schema, url, route), url }),
    });
    for (const { method, url, schema, config, constraints } of routes) {
      maker.route({ method, url, schema, config, constraints, handler: () => undefined });
    }
    await maker.ready();
    return JSON.stringify(maker.swagger());
  } finally {
    await maker.close();
  }
}

/** The document, made at the first request (every route is known by then). */
export async function openApiRoute(api: FastifyInstance): Promise<void> {
  api.get(
    '/openapi.json',
    {
      schema: {
        operationId: 'getOpenApiDocument',
        summary: 'This API as an OpenAPI 3.1 document',
        response: { 200: { description: 'The document', type: 'object' } },
      },
    },
    async (_request, reply) => {
      const document = await api.openApiDocument();
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send(document);
    },
  );
}

const swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const swaggerUiVersion = (createRequire(import.meta.url)('swagger-ui-dist/package.json') as { version: string })
  .version;

/** The page's own script, a file rather than inline, so the CSP needs no 'unsafe-inline'. */
const startScript = `window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>API reference</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<link rel="stylesheet" href="/api-docs/swagger-ui.css?v=${swaggerUiVersion}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api-docs/swagger-ui-bundle.js?v=${swaggerUiVersion}"></script>
<script src="/api-docs/start.js?v=${swaggerUiVersion}"></script>
</body>
</html>
`;

/**
 * This page only: scripts from this origin alone. Swagger UI sets element styles from its
 * script (which a CSP does not govern) and ships SVG icons as data: URLs in its stylesheet.
 */
const pageCsp = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const assets: Record<string, { file?: string; text?: string; type: string }> = {
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'start.js': { text: startScript, type: 'text/javascript; charset=utf-8' },
};

export async function apiDocsRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api-docs', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', pageCsp)
      .send(page),
  );
  // Read on first demand and kept: most servers never show the page.
  const held = new Map<string, Promise<Buffer>>();
  app.get<{ Params: { name: string } }>('/api-docs/:name', { schema: { hide: true } }, async (request, reply) => {
    const asset = assets[request.params.name];
    if (asset === undefined || !Object.hasOwn(assets, request.params.name)) {
      return reply.status(404).send({ status: 404, msg: 'not found' });
    }
    let body = held.get(request.params.name);
    if (body === undefined) {
      body =
        asset.file === undefined
          ? Promise.resolve(Buffer.from(asset.text ?? ''))
          : readFile(join(swaggerUi, asset.file));
      held.set(request.params.name, body);
      // A failed read (a broken install) is tried again on the next visit, not kept.
      body.catch(() => held.delete(request.params.name));
    }
    // Named with the version of Swagger UI in the page, so they may be kept for long.
    return reply
      .header('content-type', asset.type)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(await body);
  });
}
