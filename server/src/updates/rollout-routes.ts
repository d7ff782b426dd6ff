/**
 * A staged roll-out's three actions (docs/releases.md#staged-roll-out): set the share, halt,
 * resume. Each answers the roll-out as the releases card shows it, and is audited. Admin only.
 */
import type { OperatingSystem } from '@chat-site/contract';
import { MinVersionParams, Rollout, RolloutBody } from '@chat-site/contract/admin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { audit } from '../accounts/door.js';
import type { Database, RolloutRow } from '../db/schema.js';
import type { RouteDeps } from '../pipeline/deps.js';
import { HttpError } from '../lib/errors.js';
import { errorResponse } from '../lib/schemas.js';
import { toWireTime } from '../lib/time.js';
import { findRelease } from '../packages/releases.js';
import { changeRollout, getRollout, type RolloutChange } from './rollout.js';

/** The roll-out with its two releases' versions, for the card and the audit log. */
export async function toWireRollout(db: Kysely<Database>, row: RolloutRow, zone: string): Promise<Rollout> {
  const [release, previous] = await Promise.all([
    findRelease(db, row.release_id),
    findRelease(db, row.previous_release_id),
  ]);
  return {
    release_id: row.release_id,
    version: release?.version ?? null,
    previous_release_id: row.previous_release_id,
    previous_version: previous?.version ?? null,
    percentage: Number(row.percentage),
    halted: Number(row.halted) === 1,
    updated_at: toWireTime(row.updated_at, zone),
  };
}

const noRollout = (os: string) =>
  new HttpError(409, `${os} has no staged roll-out; publish a release with rollout_percentage to start one`, {
    code: 'conflict',
  });

export const rolloutRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  const responses = { 200: Rollout, 409: errorResponse('The platform has no staged roll-out') };

  const act =
    (action: string) => async (os: OperatingSystem, change: RolloutChange, request: Parameters<typeof audit>[1]) => {
      const beforeRow = await getRollout(db.kysely, os);
      if (beforeRow === undefined) throw noRollout(os);
      const before = await toWireRollout(db.kysely, beforeRow, config.timeZone);
      const row = await changeRollout(db.kysely, os, change);
      if (row === undefined) throw noRollout(os);
      const after = await toWireRollout(db.kysely, row, config.timeZone);
      await audit(db, request, { action, target: `rollout:${os}`, before: { os, ...before }, after: { os, ...after } });
      return after;
    };
  const setShare = act('release.rollout.percentage');
  const halt = act('release.rollout.halt');
  const resume = act('release.rollout.resume');

  app.put(
    '/rollouts/:os',
    {
      schema: {
        operationId: 'setRolloutPercentage',
        summary: "Set the share of a platform's installs offered its release being rolled out",
        params: MinVersionParams,
        body: RolloutBody,
        response: responses,
      },
    },
    async (request) => setShare(request.params.os, { percentage: request.body.percentage }, request),
  );

  app.post(
    '/rollouts/:os/halt',
    {
      schema: {
        operationId: 'haltRollout',
        summary: 'Halt a roll-out: installs not yet on it, and the site, are offered the previous release',
        params: MinVersionParams,
        response: responses,
      },
    },
    async (request) => halt(request.params.os, { halted: true }, request),
  );

  app.post(
    '/rollouts/:os/resume',
    {
      schema: {
        operationId: 'resumeRollout',
        summary: 'Resume a halted roll-out at its share',
        params: MinVersionParams,
        response: responses,
      },
    },
    async (request) => resume(request.params.os, { halted: false }, request),
  );
};
