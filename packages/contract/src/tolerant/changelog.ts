/**
 * The changelog (GET /v1/common/changelog): releases in the chat apps' update-check form
 * (app_version, os, is_force, update_desc, download_url, created_at) plus size. Other builds
 * wrap the list or spell the fields differently; an entry without a platform or a version says
 * nothing a visitor can use and is dropped.
 */
import { languageOf } from '../language.js';
import { unwrapEnvelope } from './envelope.js';
import { isRecord, listItems, pick, pickText, pickTrimmed } from './fields.js';
import { readFlag } from './scalars.js';
import { readTimestamp } from './timestamp.js';
import { WrongShapeError, type ChangelogRelease } from './types.js';

function readSize(value: unknown): number | undefined {
  const size = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof size === 'number' && Number.isFinite(size) && size >= 0 ? size : undefined;
}

function toRelease(item: unknown, timeZone: string | undefined): ChangelogRelease | undefined {
  if (!isRecord(item)) return undefined;
  const os = pickTrimmed(item, ['os', 'OS']).toLowerCase();
  const rawVersion = pick(item, ['app_version', 'appVersion', 'version']);
  const version = (
    typeof rawVersion === 'number' ? String(rawVersion) : pickText(item, ['app_version', 'appVersion', 'version'])
  ).trim();
  if (os === '' || version === '') return undefined;
  const release: ChangelogRelease = {
    os,
    version,
    force: readFlag(pick(item, ['is_force', 'isForce'])),
    notes: pickText(item, ['update_desc', 'updateDesc', 'notes']),
    downloadUrl: pickTrimmed(item, ['download_url', 'downloadUrl', 'DownloadURL']),
    releasedAt: readTimestamp(pick(item, ['created_at', 'createdAt', 'released_at']), timeZone),
  };
  const size = readSize(pick(item, ['size']));
  if (size !== undefined) release.size = size;
  // Said by this project's server when asked in a language (docs/public-api.md#languages).
  const language = languageOf(pickText(item, ['lang']));
  if (language !== null) release.language = language;
  return release;
}

/**
 * The releases of an answer, in server order (newest first). Throws ApiFailure for a failed
 * envelope and WrongShapeError when the answer is no list.
 */
export function readChangelog(body: unknown, timeZone?: string): ChangelogRelease[] {
  const items = listItems(unwrapEnvelope(body));
  if (!items) throw new WrongShapeError('the changelog answer holds no list');
  return items.flatMap((item) => toRelease(item, timeZone) ?? []);
}
