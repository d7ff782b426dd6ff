/**
 * Staged roll-outs (docs/releases.md#staged-roll-out): a platform's new release offered to a share
 * of its installs, raised step by step, halted and resumed. While one runs the package entry (what
 * the site's card and /dl offer) serves the new release, or the previous one while halted; the
 * update checks offer the new release to installs inside the share and the previous one to the
 * rest. Each install's place in the share is a keyed hash of what its request carries: nothing
 * about an install is stored.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { OperatingSystem } from '@chat-site/contract';
import type { Kysely } from 'kysely';
import type { Database, RolloutRow } from '../db/schema.js';
import { nowIso } from '../lib/time.js';
import { clientKey } from '../pipeline/admin-guard.js';
import { findRelease, serve } from '../packages/releases.js';

type DbHandle = Kysely<Database>;

/** What identifies an install that sends no id of its own: its request's address (an IPv6 /64 as
 * one, as pipeline/admin-guard.ts counts clients) and its User-Agent. */
export interface Install {
  address: string;
  userAgent: string;
}

/** Where an install falls in [0, 100): the same for every check of one roll-out, another spread
 * for the next roll-out (a new salt), so that no install is always among the first. */
export function bucketOf(salt: string, install: Install): number {
  const digest = createHmac('sha256', salt)
    .update(`${clientKey(install.address)}\n${install.userAgent}`)
    .digest();
  return (digest.readUInt32BE(0) / 0x1_0000_0000) * 100;
}

/** Whether the install is offered the rolled-out release. */
export const inShare = (rollout: Pick<RolloutRow, 'salt' | 'percentage'>, install: Install): boolean =>
  bucketOf(rollout.salt, install) < rollout.percentage;

/** The platform's roll-out, while its package entry still serves one of its two releases: an
 * entry set another way (the package list, `npm run admin -- packages set`) ends it. */
export async function getRollout(db: DbHandle, os: OperatingSystem): Promise<RolloutRow | undefined> {
  return (await listRollouts(db)).find((row) => row.os === os);
}

export async function listRollouts(db: DbHandle): Promise<RolloutRow[]> {
  const rows = await db
    .selectFrom('rollouts')
    .innerJoin('install_packages', 'install_packages.os', 'rollouts.os')
    .selectAll('rollouts')
    .select('install_packages.release_id as served')
    .execute();
  return rows.flatMap(({ served, ...row }) =>
    served === (Number(row.halted) === 1 ? row.previous_release_id : row.release_id) ? [row] : [],
  );
}

/** Starts the roll-out of a release just published (within its transaction), replacing any
 * earlier one of the platform. */
export async function startRollout(
  db: DbHandle,
  release: { os: string; id: number },
  previousReleaseId: number,
  percentage: number,
): Promise<void> {
  const row = {
    os: release.os,
    release_id: release.id,
    previous_release_id: previousReleaseId,
    percentage,
    halted: 0,
    salt: randomBytes(32).toString('base64url'),
    updated_at: nowIso(),
  };
  await db
    .insertInto('rollouts')
    .values(row)
    .onConflict((conflict) => conflict.column('os').doUpdateSet(row))
    .execute();
}

/** A release made current by hand ends the platform's roll-out: every install is offered it. */
export async function endRollout(db: DbHandle, os: string): Promise<void> {
  await db.deleteFrom('rollouts').where('os', '=', os).execute();
}

export type RolloutChange = { percentage: number } | { halted: boolean };

/** Sets the share or halts/resumes; the package entry follows (the previous release while
 * halted). Undefined when the platform has no roll-out. */
export async function changeRollout(
  db: DbHandle,
  os: OperatingSystem,
  change: RolloutChange,
): Promise<RolloutRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const before = await getRollout(trx, os);
    if (before === undefined) return undefined;
    const set = 'percentage' in change ? { percentage: change.percentage } : { halted: change.halted ? 1 : 0 };
    const after = await trx
      .updateTable('rollouts')
      .set({ ...set, updated_at: nowIso() })
      .where('os', '=', os)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (after.halted !== before.halted) {
      const served = await findRelease(trx, after.halted === 1 ? after.previous_release_id : after.release_id);
      if (served !== undefined) await serve(trx, served);
    }
    return after;
  });
}
