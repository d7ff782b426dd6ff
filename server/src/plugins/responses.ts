/**
 * What every response gets (docs/architecture.md#how-a-request-flows-through-the-server):
 * security headers, a weak ETag, and brotli or gzip over 1 KB.
 */
import etag from '@fastify/etag';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config.js';
import { compression } from './compression.js';
import { apiSecurityHeaders, isApiUrl, securityHeaders } from '../lib/security-headers.js';

export async function everyResponse(app: FastifyInstance, config: ServerConfig): Promise<void> {
  // Helmet's headers and the permissions policy, set from objects made at start, a smaller one
  // for the JSON API (lib/security-headers.ts). Routes that need another CSP set theirs later.
  const documentSecurity = securityHeaders({ behindTls: config.behindTls });
  const apiSecurity = apiSecurityHeaders({ behindTls: config.behindTls });
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiUrl(request.url) ? apiSecurity : documentSecurity);
    done();
  });
  await app.register(etag, { weak: true });
  compression(app);
}
