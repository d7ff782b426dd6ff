/** Signing in and out of the console, and changing one's own password. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { clientKey, FailureLimiter } from '../lib/admin-guard.js';
import type { RouteDeps } from '../lib/deps.js';
import { HttpError } from '../lib/errors.js';
import { errorResponses } from '../lib/schemas.js';
import { fromOwnOrigin, sessionCookie } from './door.js';
import { hashPassword, passwordProblem, unmatchableHash, verifyPassword } from './passwords.js';
import { endSession, findUser, recordAudit, setPassword, startSession } from './repository.js';

const Me = Type.Object({ name: Type.String(), role: Type.Union([Type.Literal('admin'), Type.Literal('editor')]) });
const Password = Type.String({ minLength: 1, maxLength: 1024 });

export const sessionRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  const limits = { idleMs: config.adminSessionIdleMs, maxMs: config.adminSessionMaxMs };
  // Wrong passwords count against the account and against the client, each on its own.
  const limiter = new FailureLimiter({ maxFailures: config.adminMaxFailures, windowMs: config.adminFailureWindowMs });
  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: config.behindTls,
  };

  const retryAfter = (keys: string[]) => Math.max(...keys.map((key) => limiter.retryAfterMs(key)));

  app.post(
    '/session',
    {
      config: { access: 'public' },
      schema: {
        body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }), password: Password }),
        response: { 200: Me, ...errorResponses, 403: errorResponses[401], 429: errorResponses[401] },
      },
    },
    async (request, reply) => {
      if (request.headers.origin !== undefined && !fromOwnOrigin(request, config.publicUrl)) {
        throw new HttpError(403, 'sign in from the console itself');
      }
      const { name, password } = request.body;
      const keys = [`account ${name.normalize('NFC').toLowerCase()}`, `client ${clientKey(request.ip)}`];
      const waitMs = retryAfter(keys);
      if (waitMs > 0) {
        return reply
          .status(429)
          .header('retry-after', String(Math.ceil(waitMs / 1000)))
          .send({ status: 429, msg: 'too many wrong passwords, try again later' });
      }
      const user = await findUser(db.kysely, name);
      // A name that does not exist takes as long to refuse as a wrong password.
      const matches = await verifyPassword(password, user?.password_hash ?? unmatchableHash);
      if (user === undefined || !matches) {
        for (const key of keys) limiter.recordFailure(key);
        request.log.warn({ ip: request.ip, name }, 'console: wrong user name or password');
        throw new HttpError(401, 'wrong user name or password');
      }
      const token = await startSession(db.kysely, user.id, limits, {
        address: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
      });
      reply.setCookie(sessionCookie, token, { ...cookieOptions, maxAge: Math.floor(limits.maxMs / 1000) });
      return { name: user.name, role: user.role };
    },
  );

  app.get(
    '/session',
    { config: { access: 'editor' }, schema: { response: { 200: Me, ...errorResponses } } },
    async (request) => {
      const operator = request.operator;
      return operator?.kind === 'user'
        ? { name: operator.name, role: operator.role }
        : { name: 'admin-token', role: 'admin' as const };
    },
  );

  app.delete(
    '/session',
    { config: { access: 'editor' }, schema: { response: { 204: Type.Null(), ...errorResponses } } },
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
        body: Type.Object({ current: Password, next: Password }, { additionalProperties: false }),
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const operator = request.operator;
      if (operator?.kind !== 'user') throw new HttpError(400, 'the admin token has no password to change');
      const user = await findUser(db.kysely, operator.name);
      if (user === undefined || !(await verifyPassword(request.body.current, user.password_hash))) {
        throw new HttpError(400, 'the current password is wrong');
      }
      const problem = passwordProblem(request.body.next);
      if (problem !== undefined) throw new HttpError(400, problem);
      await setPassword(db.kysely, user.id, await hashPassword(request.body.next), operator.tokenHash);
      await recordAudit(db.kysely, { actor: user.name, action: 'user.change-password', target: user.name });
      return reply.status(204).send(null);
    },
  );
};
