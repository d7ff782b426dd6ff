import { operatingSystems, type InstallPackage, type Language, type OperatingSystem } from '@chat-site/contract';
import type { Kysely } from 'kysely';
import type { Database, InstallPackageRow } from '../db/schema.js';
import { describeFile } from '../files/repository.js';
import { nowIso, toWireTime } from '../lib/time.js';
import { notesIn, noteVersions, type NoteVersions } from './note-languages.js';

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
  /** The release's notes and minimum OS, as the operator wrote them. */
  notes?: string | undefined;
  minOs?: string | undefined;
}

/** A package list entry with what its release adds for the download card. */
export type ServedPackageRow = InstallPackageRow & {
  notes: string | null;
  min_os: string | null;
  notes_tw?: string | null;
  notes_en?: string | null;
};

type DbHandle = Kysely<Database>;

const hostedPattern = /^file\/preview\/([^/?#]+)$/;

export async function listPackages(db: DbHandle): Promise<InstallPackageRow[]> {
  const rows = await db.selectFrom('install_packages').selectAll().execute();
  const rank = (os: string) => operatingSystems.indexOf(os as OperatingSystem);
  return rows.sort((a, b) => rank(a.os) - rank(b.os));
}

/** The package list with each entry's release notes and minimum OS (docs/behaviour.md#releases):
 * the entry names the release it serves, and those live on the release alone. */
export async function listServedPackages(db: DbHandle): Promise<ServedPackageRow[]> {
  const rows = await db
    .selectFrom('install_packages')
    .leftJoin('releases', 'releases.id', 'install_packages.release_id')
    .selectAll('install_packages')
    .select([
      'releases.notes as notes',
      'releases.min_os as min_os',
      'releases.notes_tw as notes_tw',
      'releases.notes_en as notes_en',
    ])
    .execute();
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

export async function setPackage(db: DbHandle, entry: PackageEntry, createdBy = 'system'): Promise<void> {
  const checked = await withHostedFileFacts(db, entry);
  const current = await db.selectFrom('install_packages').selectAll().where('os', '=', entry.os).executeTakeFirst();
  const row = { ...toRow(checked), release_id: await releaseOf(db, checked, current, createdBy) };
  await db
    .insertInto('install_packages')
    .values(row)
    .onConflict((conflict) => conflict.column('os').doUpdateSet(row))
    .execute();
}

/** Replaces the whole list at once: readers see the old list or the new one, never a mix. An
 * entry that differs from the one it replaces is recorded as a new release of its platform. */
export async function replacePackages(db: DbHandle, entries: PackageEntry[], createdBy = 'system'): Promise<void> {
  const checked = await Promise.all(entries.map((entry) => withHostedFileFacts(db, entry)));
  await db.transaction().execute(async (trx) => {
    const current = new Map((await trx.selectFrom('install_packages').selectAll().execute()).map((r) => [r.os, r]));
    const rows = [];
    for (const entry of checked) {
      rows.push({ ...toRow(entry), release_id: await releaseOf(trx, entry, current.get(entry.os), createdBy) });
    }
    await trx.deleteFrom('install_packages').execute();
    if (rows.length > 0) await trx.insertInto('install_packages').values(rows).execute();
  });
}

/** The release an entry stands for: the current one when nothing a visitor sees changed, else a
 * new release recorded now. */
async function releaseOf(
  db: DbHandle,
  entry: PackageEntry,
  current: InstallPackageRow | undefined,
  createdBy: string,
): Promise<number> {
  const row = toRow(entry);
  const served = await servedFacts(db, current);
  const notes = entry.notes ?? served?.notes ?? null;
  const minOs = entry.minOs ?? served?.min_os ?? null;
  const same =
    current !== undefined &&
    current.release_id !== null &&
    current.download_url === row.download_url &&
    current.version === row.version &&
    (current.size === null ? null : Number(current.size)) === row.size &&
    current.sha256 === row.sha256 &&
    sameSecond(current.released_at, row.released_at) &&
    current.release_notes_url === row.release_notes_url &&
    notes === (served?.notes ?? null) &&
    minOs === (served?.min_os ?? null);
  if (same) return current.release_id as number;
  // Notes kept as they were keep their other versions; new notes get theirs made.
  const versions = served !== undefined && notes === served.notes ? pick(served) : noteVersions(notes, {});
  const made = await db
    .insertInto('releases')
    .values({
      os: row.os,
      download_url: row.download_url,
      file_key: hostedKeyOf(row.download_url) ?? null,
      version: row.version,
      notes,
      ...versions,
      release_notes_url: row.release_notes_url,
      released_at: row.released_at,
      size: row.size,
      sha256: row.sha256,
      min_os: minOs,
      created_by: createdBy,
      created_at: row.updated_at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return made.id;
}

/** The notes and minimum OS of the release an entry serves. An entry sent without them keeps
 * them: a script that never knew these fields must not wipe what the operator wrote. */
async function servedFacts(db: DbHandle, current: InstallPackageRow | undefined) {
  if (current?.release_id == null) return undefined;
  return db
    .selectFrom('releases')
    .select(['notes', 'min_os', 'notes_tw', 'notes_tw_by_hand', 'notes_en'])
    .where('id', '=', current.release_id)
    .executeTakeFirst();
}

const pick = ({ notes_tw, notes_tw_by_hand, notes_en }: NoteVersions): NoteVersions => ({
  notes_tw,
  notes_tw_by_hand,
  notes_en,
});

/** The wire carries times to the second: an entry read back and sent again is the same entry. */
function sameSecond(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  return Math.floor(Date.parse(a) / 1000) === Math.floor(Date.parse(b) / 1000);
}

/** The key of the hosted file a download URL names, if it names one. */
export function hostedKeyOf(downloadUrl: string): string | undefined {
  return hostedPattern.exec(downloadUrl)?.[1];
}

export async function removePackage(db: DbHandle, os: OperatingSystem): Promise<boolean> {
  const result = await db.deleteFrom('install_packages').where('os', '=', os).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The wire entry. Hosted files get an absolute URL under `apiBase` ({origin}/v1/) so that a
 * download works from any page that links it. With `language` (asked with `lang`), the notes are
 * in it when the release has them so, and the entry says which language they are in. */
export function toWirePackage(
  row: InstallPackageRow & Partial<Pick<ServedPackageRow, 'notes' | 'min_os' | 'notes_tw' | 'notes_en'>>,
  timeZone: string,
  apiBase: string,
  language?: Language,
): InstallPackage {
  const hosted = hostedPattern.test(row.download_url);
  const notes = language === undefined ? undefined : notesIn({ ...row, notes: row.notes ?? null }, language);
  return {
    OS: row.os as OperatingSystem,
    DownloadURL: hosted ? `${apiBase}${row.download_url}` : row.download_url,
    ...(row.version !== null && { version: row.version }),
    ...(row.size !== null && { size: Number(row.size) }),
    ...(row.sha256 !== null && { sha256: row.sha256 }),
    ...(row.released_at !== null && { released_at: toWireTime(row.released_at, timeZone) }),
    ...(row.release_notes_url !== null && { release_notes_url: row.release_notes_url }),
    ...(row.notes != null && { notes: row.notes }),
    ...(row.min_os != null && { min_os: row.min_os }),
    ...(notes?.notes != null && { notes: notes.notes, notes_lang: notes.lang }),
  };
}

/** The payloads' rows are this resource's data too (docs/releases.md#update-payloads). */
export { blockmapOf, listPayloads } from './payload-rows.js';
