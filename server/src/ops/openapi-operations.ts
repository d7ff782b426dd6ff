/**
 * What every operation of the OpenAPI document says beyond its route's own schema: its tag, its
 * security, and the answers it shares with every route of its kind: invalid input (400), a body
 * too large or of an unknown type (413, 415), the admin door's refusals (401, 403, 429) and
 * conditional GETs (304, @fastify/etag). A route's schema names its own operationId, summary
 * and the answers only it gives (docs/admin-api.md#api-documentation).
 */
import { ErrorBody } from '@chat-site/contract';
import type { FastifySchema, RouteOptions } from 'fastify';
import { withAdminErrorFields } from '../lib/admin-errors.js';

const adminPrefix = '/v1/admin';

/** Methods whose body Fastify reads, and so may refuse as too large, malformed or unknown. */
const bodyMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const error = (description: string) => ({ ...ErrorBody, description });
const noBody = (description: string) => ({ type: 'null', description });

/** The answers of the admin door (accounts/door.ts, pipeline/admin-guard.ts). */
const door = {
  401: error('No valid credentials: neither the bearer ADMIN_TOKEN nor a live session cookie'),
  429: error(
    'This client sent a wrong bearer token too often; Retry-After says when to try again (docs/behaviour.md#operator-accounts)',
  ),
};
const forbidden = error(
  'The session may not do this: an editor on an admin-only call, or a change with the cookie from another origin than the console',
);

/** The answers Fastify gives before the handler runs. */
const input = {
  400: error('A parameter or the body is invalid; msg names which'),
  413: error('The body is larger than the server takes (1 MiB of JSON)'),
  415: error('The body has a Content-Type this call does not take'),
};
const notModified = noBody("Not modified: If-None-Match named this answer's ETag");
const badPath = {
  400: error('A path parameter is malformed (percent-encoding) or invalid'),
  414: error('A path parameter is longer than 200 characters'),
};

/** For answers whose schema says nothing of what they mean. */
const meanings: Record<string, string> = { 200: 'The answer', 201: 'Created', 204: 'Done; no body' };

function described(response: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(response)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, schema]) => {
        const own = schema as { description?: string };
        return [status, own.description === undefined ? { ...own, description: meanings[status] ?? status } : own];
      }),
  );
}

function methodOf(route: RouteOptions): string {
  return Array.isArray(route.method) ? String(route.method[0]) : String(route.method);
}

/** The shared answers that apply to `route`, under the ones its schema names itself. */
function sharedResponses(route: RouteOptions, own: Record<string, unknown>, guarded: boolean) {
  const method = methodOf(route);
  const schema = route.schema ?? {};
  const hasBody = bodyMethods.has(method);
  const validated = hasBody || ['querystring', 'params', 'body'].some((part) => part in schema);
  const adminOnly = (route.config?.access ?? 'admin') === 'admin';
  return {
    ...(method === 'GET' && '200' in own && { 304: notModified }),
    ...(validated && { 400: input[400] }),
    ...(/\/:\w/.test(route.url) && (route.config?.longParams === true ? { 400: badPath[400] } : badPath)),
    ...(guarded && door),
    ...(guarded && (hasBody || adminOnly) && { 403: forbidden }),
    ...(hasBody && { 413: input[413], 415: input[415] }),
  };
}

/** Who may make an admin call (docs/behaviour.md#operator-accounts). */
function whoMay(route: RouteOptions): string {
  const who =
    route.config?.access === 'editor'
      ? 'The bearer ADMIN_TOKEN, or the session of an editor or an admin.'
      : 'The bearer ADMIN_TOKEN, or the session of an admin.';
  const change = bodyMethods.has(methodOf(route))
    ? " With the session, an Origin header naming the console's origin."
    : '';
  return who + change;
}

/** A route's tag, security and shared answers; internal routes are left out. */
export function describeOperation(schema: FastifySchema | undefined, url: string, route: RouteOptions): FastifySchema {
  const own = schema ?? {};
  // Preflight catch-alls and static files are plumbing, not API.
  if (route.method === 'OPTIONS' || url.endsWith('*')) return { ...own, hide: true };
  const admin = url.startsWith(adminPrefix);
  const guarded = admin && route.config?.access !== 'public';
  const tag = admin
    ? 'admin'
    : url.startsWith('/v1/')
      ? 'public'
      : url === '/healthz' || url === '/readyz'
        ? 'health'
        : 'site';
  const ownResponses = (own.response ?? {}) as Record<string, unknown>;
  const shared = sharedResponses(route, ownResponses, guarded);
  // The admin API's errors carry a code and field as well (docs/admin-api.md#error-codes).
  const response = { ...(admin ? withAdminErrorFields(shared) : shared), ...ownResponses };
  return {
    tags: [tag],
    security: guarded ? [{ adminToken: [] }, { session: [] }] : [],
    ...(guarded && { description: whoMay(route) }),
    ...own,
    // @fastify/swagger suffixes a HEAD route's own operationId with -head; ours are unique already.
    ...(own.operationId !== undefined && { operationId: own.operationId.replace(/-head$/, '') }),
    response: described(response),
  };
}
