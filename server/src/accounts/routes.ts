/** Signing in and out of the console, and changing one's own password. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuditPage, AuditQuery, NoContent, Operator, PasswordChangeBody, SignInBody } from '@chat-site/contract/admin';
import type { RouteDeps } from '../pipeline/deps.js';
import { HttpError, type ErrorDetail } from '../lib/errors.js';
import { errorResponse } from '../lib/schemas.js';
import { fromOwnOrigin, sessionCookie } from './door.js';
import { busy, limitedCheck, refuse } from './limited-check.js';
import { hashPassword, passwordProblem, unmatchableHash, verifyPassword } from './passwords.js';
import { dayRange } from './audit-filter.js';
import { countAudit, endSession, findUser, listAudit, recordAudit, setPassword, startSession } from './repository.js';
import { PasswordChecksBusy } from './scrypt-pool.js';
import { toWireTime } from '../lib/time.js';

const wrongPassword = { code: 'wrong_password', field: 'current' } as const;

/** The rule a new password broke, for the console (docs/admin-api.md#error-codes). */
const passwordRule = (next: string): ErrorDetail =>
  [...next].length < 10
    ? { code: 'too_short', field: 'next', limit: 10 }
    : { code: 'too_long', field: 'next', limit: 1024 };

export const sessionRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  const limits = { idleMs: config.adminSessionIdleMs, maxMs: config.adminSessionMaxMs };
  // Per account and client, per client, per account: docs/console.md#sign-in-limits.
  const checkPassword = limitedCheck(db, {
    perPair: config.adminMaxFailures,
    perClient: config.adminClientMaxFailures,
    perAccount: config.adminAccountMaxFailures,
    windowMs: config.adminFailureWindowMs,
  });
  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: config.behindTls,
  };

  app.post(
    '/session',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'signIn',
        summary: 'Sign in to the console: sets the session cookie',
        body: SignInBody,
        response: {
          200: Operator,
          401: errorResponse('Wrong user name or password'),
          403: errorResponse("The Origin header names another origin than the console's"),
          429: errorResponse('Too many wrong passwords for this account or client; Retry-After says when to try again'),
          503: errorResponse('Too many password checks under way on this server; Retry-After says when to try again'),
        },
      },
    },
    async (request, reply) => {
      if (request.headers.origin !== undefined && !fromOwnOrigin(request, config.publicUrl)) {
        throw new HttpError(403, 'sign in from the console itself');
      }
      const { name, password } = request.body;
      let user: Awaited<ReturnType<typeof findUser>>;
      const matches = await checkPassword(request, name, async (slot) => {
        user = await findUser(db.kysely, name);
        // A name that does not exist takes as long to refuse as a wrong password.
        return verifyPassword(password, user?.password_hash ?? unmatchableHash, slot);
      });
      if (typeof matches === 'object') return refuse(reply, matches);
      if (user === undefined || !matches) {
        request.log.warn({ ip: request.ip, name }, 'console: wrong user name or password');
        throw new HttpError(401, 'wrong user name or password', { code: 'wrong_credentials' });
      }
      const token = await startSession(db.kysely, user.id, limits, {
        address: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
      });
      reply.setCookie(sessionCookie, token, { ...cookieOptions, maxAge: Math.floor(limits.maxMs / 1000) });
      return { name: user.name, role: user.role, time_zone: config.timeZone };
    },
  );

  app.get(
    '/session',
    {
      config: { access: 'editor' },
      schema: { operationId: 'getSession', summary: 'Who is signed in, and their role', response: { 200: Operator } },
    },
    async (request) => {
      const operator = request.operator;
      return operator?.kind === 'user'
        ? { name: operator.name, role: operator.role, time_zone: config.timeZone }
        : { name: 'admin-token', role: 'admin' as const, time_zone: config.timeZone };
    },
  );

  app.delete(
    '/session',
    {
      config: { access: 'editor' },
      schema: {
        operationId: 'signOut',
        summary: 'Sign out: ends the session and clears its cookie',
        response: { 204: NoContent },
      },
    },
    async (request, reply) => signOut(request, reply),
  );

  async function signOut(request: FastifyRequest, reply: FastifyReply) {
    if (request.operator?.kind === 'user') await endSession(db.kysely, request.operator.tokenHash);
    return reply.clearCookie(sessionCookie, cookieOptions).status(204).send(null);
  }

  app.put(
    '/session/password',
    {
      config: { access: 'editor' },
      schema: {
        operationId: 'changePassword',
        summary: "Change the signed-in operator's own password (ends their other sessions)",
        body: PasswordChangeBody,
        response: {
          204: NoContent,
          429: errorResponse('Too many wrong current passwords; Retry-After says when to try again'),
          503: errorResponse('Too many password checks under way on this server; Retry-After says when to try again'),
        },
      },
    },
    async (request, reply) => {
      const operator = request.operator;
      if (operator?.kind !== 'user')
        throw new HttpError(400, 'the admin token has no password to change', { code: 'no_password' });
      const user = await findUser(db.kysely, operator.name);
      if (user === undefined) throw new HttpError(400, 'the current password is wrong', wrongPassword);
      const matches = await checkPassword(request, user.name, (slot) =>
        verifyPassword(request.body.current, user.password_hash, slot),
      );
      if (typeof matches === 'object') return refuse(reply, matches);
      if (!matches) throw new HttpError(400, 'the current password is wrong', wrongPassword);
      const problem = passwordProblem(request.body.next);
      if (problem !== undefined) throw new HttpError(400, problem, passwordRule(request.body.next));
      const passwordHash = await hashPassword(request.body.next).catch((error: unknown) => {
        if (error instanceof PasswordChecksBusy) return undefined;
        throw error;
      });
      if (passwordHash === undefined) return refuse(reply, busy);
      await setPassword(db.kysely, user.id, passwordHash, operator.tokenHash);
      await recordAudit(db.kysely, { actor: user.name, action: 'user.change-password', target: user.name });
      return reply.status(204).send(null);
    },
  );

  const parsed = (json: string | null): unknown => (json === null ? null : JSON.parse(json));

  app.get(
    '/audit',
    {
      schema: {
        operationId: 'listAuditEntries',
        summary: 'One page of the audit log, newest first, filtered by who, action, days and words',
        querystring: AuditQuery,
        response: { 200: AuditPage },
      },
    },
    async (request) => {
      const { who, action, from, to, q, page_index, page_size } = request.query;
      const filter = { who, action, q, ...dayRange(from, to, config.timeZone) };
      const [count, rows] = await Promise.all([
        countAudit(db.kysely, filter),
        listAudit(db.kysely, { limit: page_size, offset: (page_index - 1) * page_size, ...filter }),
      ]);
      return {
        count,
        list: rows.map((row) => ({
          id: Number(row.id),
          at: toWireTime(row.at, config.timeZone),
          actor: row.actor,
          action: row.action,
          target: row.target,
          before: parsed(row.before),
          after: parsed(row.after),
        })),
      };
    },
  );
};
