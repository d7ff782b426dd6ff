/**
 * Releases: every package published for a platform is kept, and the package list's entry of the
 * platform serves one of them (install_packages.release_id). Publishing writes the release and
 * points the entry at it in one transaction; so does making an earlier release current again.
 * See docs/behaviour.md#releases.
 */
import type { OperatingSystem } from '@chat-site/contract';
import type { Kysely } from 'kysely';
import type { Database, ReleaseRow } from '../db/schema.js';
import { nowIso } from '../lib/time.js';
import { endRollout, startRollout } from '../updates/rollout.js';
import { findFile } from '../files/repository.js';
import { listPayloads, storePayloads } from './payload-rows.js';
import type { NewPayload } from './payloads.js';
import { noteVersions, type GivenNotes } from './note-languages.js';
import { hostedKeyOf, UnknownHostedFileError, withHostedFileFacts } from './repository.js';

type DbHandle = Kysely<Database>;

export interface NewRelease extends GivenNotes {
  os: OperatingSystem;
  /** An http(s) URL, or file/preview/<key> for a hosted file. */
  downloadUrl: string;
  version?: string | undefined;
  notes?: string | undefined;
  releaseNotesUrl?: string | undefined;
  /** ISO instant. */
  releasedAt?: string | undefined;
  size?: number | undefined;
  sha256?: string | undefined;
  minOs?: string | undefined;
  /** Clients older than it must update (docs/releases.md#update-checks). */
  isForce?: boolean | undefined;
  /** The Tauri updater's signature of the package. */
  signature?: string | undefined;
  /** Below 100: a staged roll-out from the platform's current release (docs/releases.md#staged-roll-out). */
  rolloutPercentage?: number | undefined;
  /** What installed apps' updaters fetch instead of the download (docs/releases.md#update-payloads). */
  payloads?: NewPayload[] | undefined;
  createdBy: string;
}

/** A staged roll-out needs a release to offer the installs outside its share. */
export class NothingToRollOutFromError extends Error {}

/** Records a release and makes it the one its platform serves, at once for every reader. A hosted
 * file's own size and hash are kept, whatever was given. Fails (UnknownHostedFileError) when the
 * hosted file does not exist. */
export async function publishRelease(db: DbHandle, release: NewRelease): Promise<ReleaseRow> {
  const facts = await withHostedFileFacts(db, release);
  return db.transaction().execute(async (trx) => {
    const previous = await trx
      .selectFrom('install_packages')
      .select('release_id')
      .where('os', '=', release.os)
      .executeTakeFirst();
    const staged = release.rolloutPercentage !== undefined && release.rolloutPercentage < 100;
    if (staged && (previous?.release_id ?? null) === null) {
      throw new NothingToRollOutFromError(`${release.os} has no current release to roll out from`);
    }
    const row = await trx
      .insertInto('releases')
      .values({
        os: release.os,
        download_url: release.downloadUrl,
        file_key: hostedKeyOf(release.downloadUrl) ?? null,
        version: release.version ?? null,
        notes: release.notes ?? null,
        ...noteVersions(release.notes ?? null, release),
        release_notes_url: release.releaseNotesUrl ?? null,
        released_at: release.releasedAt ?? null,
        size: facts.size ?? null,
        sha256: facts.sha256 ?? null,
        min_os: release.minOs ?? null,
        is_force: release.isForce === true ? 1 : 0,
        signature: release.signature ?? null,
        created_by: release.createdBy,
        created_at: nowIso(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await storePayloads(trx, row.id, release.payloads ?? []);
    await serve(trx, row);
    if (staged) await startRollout(trx, row, previous?.release_id ?? 0, release.rolloutPercentage ?? 100);
    else await endRollout(trx, release.os);
    return row;
  });
}

/** Makes a release its platform's current one again; undefined when there is no such release.
 * Fails (UnknownHostedFileError) when its hosted file has been deleted since. */
export async function makeCurrent(db: DbHandle, id: number): Promise<ReleaseRow | undefined> {
  const row = await findRelease(db, id);
  if (row === undefined) return undefined;
  await withHostedFileFacts(db, { os: row.os as OperatingSystem, downloadUrl: row.download_url });
  // Its update payloads must still be there too, or the updaters would be sent to nothing.
  for (const payload of await listPayloads(db, [id])) {
    if (payload.file_key !== null && (await findFile(db, payload.file_key)) === undefined) {
      throw new UnknownHostedFileError(payload.download_url);
    }
  }
  await db.transaction().execute(async (trx) => {
    await serve(trx, row);
    await endRollout(trx, row.os);
  });
  return row;
}

/** Points the platform's package list entry at the release. */
export async function serve(db: DbHandle, row: ReleaseRow): Promise<void> {
  const entry = {
    os: row.os,
    download_url: row.download_url,
    version: row.version,
    size: row.size,
    sha256: row.sha256,
    released_at: row.released_at,
    release_notes_url: row.release_notes_url,
    updated_at: nowIso(),
    release_id: row.id,
  };
  await db
    .insertInto('install_packages')
    .values(entry)
    .onConflict((conflict) => conflict.column('os').doUpdateSet(entry))
    .execute();
}

export async function findRelease(db: DbHandle, id: number): Promise<ReleaseRow | undefined> {
  return db.selectFrom('releases').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every release, newest first. */
export async function listReleases(db: DbHandle): Promise<ReleaseRow[]> {
  return db.selectFrom('releases').selectAll().orderBy('id', 'desc').execute();
}

/** The file name extensions a platform installs from; anything else is refused for it. */
export const platformExtensions: Record<OperatingSystem, string[]> = {
  android: ['apk'],
  ios: ['ipa'],
  windows: ['exe', 'msi', 'zip'],
  mac: ['dmg', 'pkg', 'zip'],
};

export function extensionOfName(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}
