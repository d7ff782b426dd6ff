/**
 * A password check within the limits (docs/console.md#sign-in-limits): first a place in the
 * process's scrypt pool is taken, or the check is refused at once, before anything is written
 * (accounts/scrypt-pool.ts); then the attempt is counted in the database before the check starts,
 * so at most the limits' number of checks are ever under way or done, whichever worker or server
 * the guesses reach.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/connect.js';
import { clientKey } from '../pipeline/admin-guard.js';
import { admitAttempt, succeeded, type AttemptLimits } from './attempts.js';
import { nameKey } from './repository.js';
import { scryptPool, type Slot } from './scrypt-pool.js';

export interface Refusal {
  status: 429 | 503;
  msg: string;
  retryAfterMs: number;
}

export const tooManyWrong = 'too many wrong passwords, try again later';
/** A full scrypt pool; a second is about how long a check takes under load. */
export const busy: Refusal = { status: 503, msg: 'too many sign-ins at once, try again shortly', retryAfterMs: 1000 };

export function refuse(reply: FastifyReply, refusal: Refusal) {
  return reply
    .status(refusal.status)
    .header('retry-after', String(Math.ceil(refusal.retryAfterMs / 1000)))
    .send({ status: refusal.status, msg: refusal.msg });
}

/** Answers whether `check` found the password of `account` right, or why it was not run.
 * `check` derives its key in the slot it is given. */
export function limitedCheck(db: Db, limits: AttemptLimits) {
  return async (request: FastifyRequest, account: string, check: (slot: Slot) => Promise<boolean>) => {
    const slot = scryptPool.reserve();
    if (slot === undefined) return busy;
    try {
      const admission = await admitAttempt(db.kysely, limits, nameKey(account), clientKey(request.ip));
      if (!admission.admitted) {
        return { status: 429, msg: tooManyWrong, retryAfterMs: admission.retryAfterMs } satisfies Refusal;
      }
      const right = await check(slot);
      if (right) await succeeded(db.kysely, admission.counted);
      return right;
    } finally {
      slot.release();
    }
  };
}
