/**
 * What the installed apps' update checks offer for a platform (docs/releases.md#update-checks):
 * the platform's current release, read from the database, with the address /dl/{os} would send
 * that client to and the platform's lowest supported version.
 */
import type { OperatingSystem } from '@chat-site/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { downloadTarget, type TargetContext } from '../downloads/target.js';
import { describeFile } from '../files/repository.js';
import { listPackages, hostedKeyOf } from '../packages/repository.js';
import { findRelease } from '../packages/releases.js';
import { getMinVersions } from './min-versions.js';

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
  const key = hostedKeyOf(entry.download_url);
  const file = key === undefined ? undefined : await describeFile(db, key);
  const minVersions = await getMinVersions(db);
  return {
    version: entry.version,
    notes: release?.notes ?? null,
    force: Number(release?.is_force ?? 0) === 1,
    minVersion: minVersions[os] ?? null,
    signature: release?.signature ?? null,
    releasedAt: entry.released_at ?? release?.created_at ?? entry.updated_at,
    url,
    sha512: file?.sha512 ?? null,
    size: entry.size === null ? null : Number(entry.size),
  };
}
