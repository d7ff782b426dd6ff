/**
 * An update check's platform and version read from its path by the update routes themselves,
 * for a path the router leaves to them: one whose platform or version is longer than the
 * router's limit on a parameter (200 characters, plugins/server-options.ts). Such a check is
 * answered like any other, never refused (docs/releases.md#update-checks).
 */
import { badRequest } from '../lib/errors.js';

export interface CheckPath {
  os: string;
  version: string;
}

/** The two segments in the place of the catch-all route's `*`, percent-decoded as the router
 * decodes a parameter (one trailing slash ignored, as the router does); undefined when there are
 * not exactly two. */
export function checkPathOf(url: string, route = ''): CheckPath | undefined {
  const prefix = route.replace(/\*$/, '');
  const path = (url.split('?')[0] ?? '').slice(prefix.length).replace(/\/$/, '');
  const segments = path.split('/');
  if (segments.length !== 2 || segments.includes('')) return undefined;
  const [os = '', version = ''] = segments.map(decoded);
  return { os, version };
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`'${segment.slice(0, 64)}' is not a valid url component`);
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** true: a path parameter of any length reaches the route (through a catch-all beside it),
     * so the router's 414 is never its answer (ops/openapi-operations.ts). */
    longParams?: true;
  }
}
