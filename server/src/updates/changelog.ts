/**
 * The public changelog (docs/site.md#changelog): every published release of every platform,
 * newest first, each in the update check's own form (answers.ts) with the package's size.
 */
import {
  defaultLanguage,
  operatingSystems,
  readAppConfig,
  resolveDownloadUrl,
  type Language,
  type OperatingSystem,
} from '@chat-site/contract';
import type { Kysely } from 'kysely';
import type { Database, ReleaseRow } from '../db/schema.js';
import { toWireTime } from '../lib/time.js';
import { notesIn } from '../packages/note-languages.js';
import { listReleases } from '../packages/releases.js';
import { hostedKeyOf } from '../packages/repository.js';
import { getAppConfig } from '../settings/repository.js';

export interface ChangelogEntry {
  app_version: string;
  os: OperatingSystem;
  is_force: number;
  update_desc: string;
  download_url: string;
  created_at: string;
  /** Bytes; null when the release did not say. */
  size: number | null;
  /** The language update_desc is in, said when asked in one (docs/public-api.md#languages). */
  lang?: Language;
}

export interface ChangelogContext {
  db: Kysely<Database>;
  timeZone: string;
  /** {origin}/v1/, where hosted files are served. */
  apiBase: string;
  /** Where relative addresses are resolved, as the site does (SiteConfig.appUrl). */
  appUrl: string;
  /** The notes' language, asked with `lang`; without it the answer is the update check's own
   * form, as it always was. */
  language?: Language;
}

/** When a release came out: the date the operator gave, else when it was published. */
const releasedAt = (row: ReleaseRow) => row.released_at ?? row.created_at;

/** A changelog entry with what the feed needs beside it. */
export interface ChangelogRelease {
  id: number;
  /** ISO instant of created_at. */
  releasedAt: string;
  entry: ChangelogEntry;
}

/** Every release, newest first, in the wire form. */
export async function changelog(context: ChangelogContext): Promise<ChangelogEntry[]> {
  return (await changelogReleases(context)).map((release) => release.entry);
}

/** Releases without a version are left out: an update check never offers them either. */
export async function changelogReleases(context: ChangelogContext): Promise<ChangelogRelease[]> {
  const [rows, appConfig] = await Promise.all([listReleases(context.db), getAppConfig(context.db)]);
  const cdn = readAppConfig(appConfig);
  const newestFirst = rows
    .filter((row) => row.version !== null && (operatingSystems as readonly string[]).includes(row.os))
    .sort((a, b) => Date.parse(releasedAt(b)) - Date.parse(releasedAt(a)) || b.id - a.id);
  return newestFirst.map((row) => {
    // A hosted file is named under this server's API, then the CDN applies as on the download screen.
    const url =
      hostedKeyOf(row.download_url) === undefined ? row.download_url : `${context.apiBase}${row.download_url}`;
    const notes = notesIn(row, context.language ?? defaultLanguage);
    const entry: ChangelogEntry = {
      app_version: row.version as string,
      os: row.os as OperatingSystem,
      is_force: Number(row.is_force) === 1 ? 1 : 0,
      update_desc: notes.notes ?? '',
      download_url: resolveDownloadUrl(url, { base: context.appUrl, cdn }),
      created_at: toWireTime(releasedAt(row), context.timeZone),
      size: row.size === null ? null : Number(row.size),
      ...(context.language !== undefined && { lang: notes.lang }),
    };
    return { id: row.id, releasedAt: releasedAt(row), entry };
  });
}
