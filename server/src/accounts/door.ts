/**
 * Who may use the admin API: a script with the bearer token (ADMIN_TOKEN), or an operator signed
 * in to the console with a session cookie. A route says who it is for in its config (`access`):
 * 'public' (signing in), 'editor' (announcements and their pictures, one's own session) or, by
 * default, 'admin'. A request that changes something on the strength of a cookie must come from
 * the console's own origin: browsers send a SameSite=Strict cookie only from the site anyway,
 * and the Origin check holds where SameSite does not (old browsers, sibling subdomains).
 * See docs/behaviour.md#operator-accounts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/connect.js';
import type { Role } from '../db/schema.js';
import type { FailureLimitOptions } from '../pipeline/admin-guard.js';
import { adminGuard } from '../pipeline/admin-guard.js';
import { publicOrigin } from '../lib/origin.js';
import { recordAudit, sessionUser, type SessionLimits, type SessionUser } from './repository.js';

export const sessionCookie = 'chat_site_session';

export type Access = 'public' | Role;

export type Operator = { kind: 'token' } | ({ kind: 'user' } & SessionUser);

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    operator?: Operator;
  }
}

/** The name the audit log gives whoever made a request. */
export function actorOf(request: FastifyRequest): string {
  const operator = request.operator;
  return operator === undefined ? 'anonymous' : operator.kind === 'token' ? 'admin-token' : operator.name;
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a request came from a page of this site (its Origin header names this origin). */
export function fromOwnOrigin(request: FastifyRequest, publicUrl: string | undefined): boolean {
  const origin = request.headers.origin;
  return origin !== undefined && origin === publicOrigin(request, publicUrl);
}

export interface DoorOptions extends FailureLimitOptions {
  db: Db;
  token: string | undefined;
  proxyTrusted: boolean;
  publicUrl: string | undefined;
  limits: SessionLimits;
}

export function adminDoor(options: DoorOptions) {
  const tokenGuard = options.token === undefined ? undefined : adminGuard({ ...options, token: options.token });
  const refuse = (reply: FastifyReply, status: number, msg: string) => {
    if (status === 401) reply.header('www-authenticate', 'Bearer');
    return reply.status(status).send({ status, msg });
  };
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const access = request.routeOptions.config.access ?? 'admin';
    if (access === 'public') return;
    const token = request.cookies[sessionCookie];
    // No session cookie: a script, with the bearer token or nothing.
    if (token === undefined || request.headers.authorization !== undefined) {
      if (tokenGuard === undefined) return refuse(reply, 401, 'unauthorized');
      const refused = await tokenGuard(request, reply);
      if (refused !== undefined) return refused;
      request.operator = { kind: 'token' };
      return;
    }
    const user = await sessionUser(options.db.kysely, token, options.limits);
    if (user === undefined) return refuse(reply, 401, 'unauthorized');
    if (!safeMethods.has(request.method) && !fromOwnOrigin(request, options.publicUrl)) {
      return refuse(reply, 403, 'a change must come from the console itself');
    }
    if (access === 'admin' && user.role !== 'admin') return refuse(reply, 403, 'this needs an admin account');
    request.operator = { kind: 'user', ...user };
  };
}

/** Records in the audit log that the maker of `request` changed `target`. */
export async function audit(
  db: Db,
  request: FastifyRequest,
  change: { action: string; target: string | number; before?: unknown; after?: unknown },
): Promise<void> {
  await recordAudit(db.kysely, { ...change, target: String(change.target), actor: actorOf(request) });
}
