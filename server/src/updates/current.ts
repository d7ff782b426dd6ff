/**
 * What the installed apps' update checks offer for a platform (docs/releases.md#update-checks):
 * the platform's current release, read from the database, with the address /dl/{os} would send
 * that client to and the platform's lowest supported version; during a staged roll-out also the
 * release before it, for the installs outside the share (docs/releases.md#staged-roll-out).
 */
import type { OperatingSystem } from '@chat-site/contract';
import type { Kysely } from 'kysely';
import type { Database, InstallPackageRow, ReleaseRow } from '../db/schema.js';
import { downloadTarget, entryTarget, type TargetContext } from '../downloads/target.js';
import { describeFile } from '../files/repository.js';
import { listPayloads } from '../packages/payloads.js';
import { listPackages, hostedKeyOf } from '../packages/repository.js';
import { findRelease } from '../packages/releases.js';
import { getMinVersions } from './min-versions.js';
import { getRollout } from './rollout.js';

/** Plain data, so that it can be held as JSON in the read cache. */
export interface Offer {
  version: string;
  notes: string | null;
  /** The release itself forces the update. */
  force: boolean;
  /** Clients below this must update; null when the platform has none. */
  minVersion: string | null;
  signature: string | null;
  /** ISO instant: when it was released (or, without that, published). */
  releasedAt: string;
  /** Where /dl/{os} sends this client now. */
  url: string;
  /** Of the hosted file; null for an outside URL (or a file hashed before SHA-512 was kept). */
  sha512: string | null;
  size: number | null;
  /** What the updaters fetch instead of the download, in the order published
   * (docs/releases.md#update-payloads); empty: they fetch the download. */
  payloads: OfferPayload[];
}

export interface OfferPayload {
  role: string;
  /** null: every architecture. */
  arch: string | null;
  /** Where /dl would send a client for it: the CDN applied to a hosted file. */
  url: string;
  sha512: string | null;
  size: number | null;
  signature: string | null;
}

/** A platform's offers: `offer` to every install, or during a staged roll-out to those inside
 * `share` and `previous` to the rest. */
export interface Offers {
  offer: Offer;
  previous: Offer | null;
  share: { percentage: number; salt: string } | null;
}

/** Undefined when nothing is offered: no release, one without a version, or a platform this host
 * does not offer (as /dl/{os} answers 404). */
export async function currentOffer(os: OperatingSystem, context: TargetContext): Promise<Offer | undefined> {
  const db: Kysely<Database> = context.db;
  const entry = (await listPackages(db)).find((row) => row.os === os);
  if (entry === undefined || entry.version === null) return undefined;
  const url = await downloadTarget(os, context);
  if (url === undefined) return undefined;
  const release = entry.release_id === null ? undefined : await findRelease(db, entry.release_id);
  return offerOf(entry, entry.version, release, url, context);
}

/** The current offer and, while a roll-out is staged and not halted, the one before it. */
export async function currentOffers(os: OperatingSystem, context: TargetContext): Promise<Offers | undefined> {
  const offer = await currentOffer(os, context);
  if (offer === undefined) return undefined;
  const rollout = await getRollout(context.db, os);
  if (rollout === undefined || Number(rollout.halted) === 1 || Number(rollout.percentage) >= 100) {
    return { offer, previous: null, share: null };
  }
  const before = await findRelease(context.db, rollout.previous_release_id);
  const previous = before === undefined ? undefined : await releaseOffer(before, context);
  return { offer, previous: previous ?? null, share: { percentage: Number(rollout.percentage), salt: rollout.salt } };
}

/** An earlier release offered as if its platform's entry served it. */
async function releaseOffer(release: ReleaseRow, context: TargetContext): Promise<Offer | undefined> {
  if (release.version === null) return undefined;
  const entry: InstallPackageRow = {
    os: release.os,
    download_url: release.download_url,
    version: release.version,
    size: release.size,
    sha256: release.sha256,
    released_at: release.released_at,
    release_notes_url: release.release_notes_url,
    updated_at: release.created_at,
    release_id: release.id,
  };
  const url = context.primaryHost
    ? await downloadTarget(release.os as OperatingSystem, context)
    : await entryTarget(entry, context);
  return url === undefined ? undefined : offerOf(entry, release.version, release, url, context);
}

async function offerOf(
  entry: InstallPackageRow,
  version: string,
  release: ReleaseRow | undefined,
  url: string,
  context: TargetContext,
): Promise<Offer> {
  const { db } = context;
  const key = hostedKeyOf(entry.download_url);
  const file = key === undefined ? undefined : await describeFile(db, key);
  const minVersions = await getMinVersions(db);
  return {
    version,
    notes: release?.notes ?? null,
    force: Number(release?.is_force ?? 0) === 1,
    minVersion: minVersions[entry.os as OperatingSystem] ?? null,
    signature: release?.signature ?? null,
    releasedAt: entry.released_at ?? release?.created_at ?? entry.updated_at,
    url,
    sha512: file?.sha512 ?? null,
    size: entry.size === null ? null : Number(entry.size),
    payloads: release === undefined ? [] : await payloadOffers(entry, release.id, context),
  };
}

/** A release's payloads, each at the address its entry's rules give it. */
async function payloadOffers(entry: InstallPackageRow, releaseId: number, context: TargetContext) {
  const offered: OfferPayload[] = [];
  for (const payload of await listPayloads(context.db, [releaseId])) {
    const url = await entryTarget({ ...entry, download_url: payload.download_url }, context);
    if (url === undefined) continue;
    offered.push({
      role: payload.role,
      arch: payload.arch,
      url,
      sha512: payload.sha512,
      size: payload.size === null ? null : Number(payload.size),
      signature: payload.signature,
    });
  }
  return offered;
}
