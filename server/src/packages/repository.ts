import { operatingSystems, type InstallPackage, type OperatingSystem } from '@chat-site/contract';
import type { Kysely } from 'kysely';
import type { Database, InstallPackageRow } from '../db/schema.js';
import { describeFile } from '../files/repository.js';
import { nowIso, toWireTime } from '../lib/time.js';

export interface PackageEntry {
  os: OperatingSystem;
  /** Absolute URL, or file/preview/<key> for a file this server hosts. */
  downloadUrl: string;
  version?: string | undefined;
  size?: number | undefined;
  sha256?: string | undefined;
  /** ISO instant. */
  releasedAt?: string | undefined;
  releaseNotesUrl?: string | undefined;
}

type DbHandle = Kysely<Database>;

const hostedPattern = /^file\/preview\/([^/?#]+)$/;

export async function listPackages(db: DbHandle): Promise<InstallPackageRow[]> {
  const rows = await db.selectFrom('install_packages').selectAll().execute();
  const rank = (os: string) => operatingSystems.indexOf(os as OperatingSystem);
  return rows.sort((a, b) => rank(a.os) - rank(b.os));
}

/** For a file the server hosts, the true size and hash replace whatever the entry said.
 * Fails when the entry names a hosted file that does not exist. */
export async function withHostedFileFacts(db: DbHandle, entry: PackageEntry): Promise<PackageEntry> {
  const key = hostedPattern.exec(entry.downloadUrl)?.[1];
  if (key === undefined) return entry;
  const facts = await describeFile(db, key);
  if (facts === undefined) throw new UnknownHostedFileError(entry.downloadUrl);
  return { ...entry, size: facts.size, sha256: facts.sha256 };
}

export class UnknownHostedFileError extends Error {
  constructor(readonly url: string) {
    super(`no hosted file at ${url}; upload it first`);
  }
}

function toRow(entry: PackageEntry) {
  return {
    os: entry.os,
    download_url: entry.downloadUrl,
    version: entry.version ?? null,
    size: entry.size ?? null,
    sha256: entry.sha256 ?? null,
    released_at: entry.releasedAt ?? null,
    release_notes_url: entry.releaseNotesUrl ?? null,
    updated_at: nowIso(),
  };
}

export async function setPackage(db: DbHandle, entry: PackageEntry): Promise<void> {
  const checked = await withHostedFileFacts(db, entry);
  const row = toRow(checked);
  await db
    .insertInto('install_packages')
    .values(row)
    .onConflict((conflict) => conflict.column('os').doUpdateSet(row))
    .execute();
}

/** Replaces the whole list at once: readers see the old list or the new one, never a mix. */
export async function replacePackages(db: DbHandle, entries: PackageEntry[]): Promise<void> {
  const checked = await Promise.all(entries.map((entry) => withHostedFileFacts(db, entry)));
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('install_packages').execute();
    if (checked.length > 0) await trx.insertInto('install_packages').values(checked.map(toRow)).execute();
  });
}

export async function removePackage(db: DbHandle, os: OperatingSystem): Promise<boolean> {
  const result = await db.deleteFrom('install_packages').where('os', '=', os).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The wire entry. Hosted files get an absolute URL under `apiBase` ({origin}/v1/) so that a
 * download works from any page that links it. */
export function toWirePackage(row: InstallPackageRow, timeZone: string, apiBase: string): InstallPackage {
  const hosted = hostedPattern.test(row.download_url);
  return {
    OS: row.os as OperatingSystem,
    DownloadURL: hosted ? `${apiBase}${row.download_url}` : row.download_url,
    ...(row.version !== null && { version: row.version }),
    ...(row.size !== null && { size: Number(row.size) }),
    ...(row.sha256 !== null && { sha256: row.sha256 }),
    ...(row.released_at !== null && { released_at: toWireTime(row.released_at, timeZone) }),
    ...(row.release_notes_url !== null && { release_notes_url: row.release_notes_url }),
  };
}
