/**
 * A password check within the limits (docs/console.md#sign-in-limits): the attempt is counted in
 * the database before the check starts, so at most the limits' number of checks are ever under
 * way or done, whichever worker or server the guesses reach.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/connect.js';
import { clientKey } from '../lib/admin-guard.js';
import { admitAttempt, succeeded, type AttemptLimits } from './attempts.js';
import { nameKey } from './repository.js';

export interface Refusal {
  status: 429;
  msg: string;
  retryAfterMs: number;
}

export const tooManyWrong = 'too many wrong passwords, try again later';

export function refuse(reply: FastifyReply, refusal: Refusal) {
  return reply
    .status(refusal.status)
    .header('retry-after', String(Math.ceil(refusal.retryAfterMs / 1000)))
    .send({ status: refusal.status, msg: refusal.msg });
}

/** Answers whether `check` found the password of `account` right, or why it was not run. */
export function limitedCheck(db: Db, limits: AttemptLimits) {
  return async (request: FastifyRequest, account: string, check: () => Promise<boolean>) => {
    const admission = await admitAttempt(db.kysely, limits, nameKey(account), clientKey(request.ip));
    if (!admission.admitted) {
      return { status: 429, msg: tooManyWrong, retryAfterMs: admission.retryAfterMs } satisfies Refusal;
    }
    const right = await check();
    if (right) await succeeded(db.kysely, admission.counted);
    return right;
  };
}
