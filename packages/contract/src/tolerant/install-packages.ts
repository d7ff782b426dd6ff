/**
 * The install-package list. Besides the list shapes, one server build sends a single string of
 * JSON objects joined by ", ", which a naive split breaks whenever a value itself holds ", ".
 */
import { languageOf } from '../language.js';
import { unwrapEnvelope } from './envelope.js';
import { isRecord, listItems, pick, pickText, pickTrimmed } from './fields.js';
import { readTimestamp } from './timestamp.js';
import { WrongShapeError, type InstallPackageEntry } from './types.js';

/** Each top-level {...} of the text, ignoring braces inside JSON strings. */
function objectTexts(text: string): string[] {
  const found: string[] = [];
  let depth = 0;
  let start = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') {
      if (depth++ === 0) start = i;
    } else if (char === '}' && depth > 0 && --depth === 0) found.push(text.slice(start, i + 1));
  }
  return found;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The entries of the string form. Wrapping in [ ] reads the well-formed case in one go; when a
 * single object is malformed, scanning object by object still saves the others.
 */
function itemsOfString(text: string): unknown[] | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const whole = parseJson(trimmed.startsWith('[') ? trimmed : `[${trimmed}]`);
  if (Array.isArray(whole)) return whole;
  const items = objectTexts(trimmed)
    .map(parseJson)
    .filter((item) => item !== undefined);
  return items.length > 0 ? items : undefined;
}

function readSize(value: unknown): number | undefined {
  const size = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof size === 'number' && Number.isFinite(size) && size >= 0 ? size : undefined;
}

function readVersion(value: unknown): string | undefined {
  const version = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  return typeof version === 'string' && version.trim() !== '' ? version.trim() : undefined;
}

/** Optional fields are left out rather than set to undefined, so entries compare and serialize cleanly. */
function toEntry(item: unknown, timeZone: string | undefined): InstallPackageEntry | undefined {
  if (!isRecord(item)) return undefined;
  const os = pickTrimmed(item, ['OS', 'os']).toLowerCase();
  const downloadUrl = pickTrimmed(item, ['DownloadURL', 'download_url', 'downloadUrl']);
  if (os === '' || downloadUrl === '') return undefined;
  const entry: InstallPackageEntry = { os, downloadUrl };
  const version = readVersion(pick(item, ['version']));
  if (version !== undefined) entry.version = version;
  const size = readSize(pick(item, ['size']));
  if (size !== undefined) entry.size = size;
  const sha256 = pickTrimmed(item, ['sha256']).toLowerCase();
  if (sha256 !== '') entry.sha256 = sha256;
  const releasedAt = readTimestamp(pick(item, ['released_at', 'releasedAt']), timeZone);
  if (releasedAt !== '') entry.releasedAt = releasedAt;
  const releaseNotesUrl = pickTrimmed(item, ['release_notes_url', 'releaseNotesUrl']);
  if (releaseNotesUrl !== '') entry.releaseNotesUrl = releaseNotesUrl;
  // The same names the changelog reads a release's notes by (changelog.ts).
  const notes = pickTrimmed(item, ['notes', 'update_desc', 'updateDesc']);
  if (notes !== '') entry.notes = notes;
  const notesLanguage = languageOf(pickText(item, ['notes_lang']));
  if (notes !== '' && notesLanguage !== null) entry.notesLanguage = notesLanguage;
  const minOs = pickTrimmed(item, ['min_os', 'minOs']);
  if (minOs !== '') entry.minOs = minOs;
  return entry;
}

/**
 * The install packages of an answer, in server order. Throws ApiFailure for a failed envelope
 * and WrongShapeError when the answer is no list (nor a string of entries).
 */
export function readInstallPackages(body: unknown, timeZone?: string): InstallPackageEntry[] {
  const payload = unwrapEnvelope(body);
  const items = typeof payload === 'string' ? itemsOfString(payload) : listItems(payload);
  if (!items) throw new WrongShapeError('the install package answer holds no list');
  return items.flatMap((item) => toEntry(item, timeZone) ?? []);
}
