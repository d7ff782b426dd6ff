import { ApiFailure, WrongShapeError } from '@chat-site/contract';
import { HttpError, logFailure } from './http';
import { readString, storageKeys, writeString } from './storage';

/**
 * The last good answer of each call the site can show offline (announcement list, details,
 * package list), kept in local storage under one versioned key. When a call later gets no
 * answer, the saved copy is shown instead of the error, marked stale so the screen adds a note.
 *
 * Bounded: at most `maxEntries` answers and `maxChars` characters, the oldest dropped first, so
 * one visitor reading many announcements never fills the origin's storage. A store that is not
 * valid JSON, or not of this version, reads as empty.
 */
const maxEntries = 24;
const maxChars = 400_000;

interface Entry {
  savedAt: number;
  data: unknown;
}
type Store = Record<string, Entry>;

function readStore(): Store {
  try {
    const value: unknown = JSON.parse(readString(storageKeys.lastGood) ?? '{}');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    const store: Store = {};
    for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
      if (typeof entry !== 'object' || entry === null) continue;
      const { savedAt, data } = entry as Partial<Entry>;
      if (typeof savedAt === 'number' && Number.isFinite(savedAt)) store[key] = { savedAt, data };
    }
    return store;
  } catch {
    return {};
  }
}

/** Keeps `data` as the last good answer for `key`, dropping the oldest answers over the bounds. */
export function remember(key: string, data: unknown): void {
  const entries = Object.entries({ ...readStore(), [key]: { savedAt: Date.now(), data } }).sort(
    ([, a], [, b]) => b.savedAt - a.savedAt,
  );
  // Newest first: keep what fits, so an answer too large on its own is simply not kept.
  const kept: Store = {};
  let chars = 2;
  for (const [entryKey, entry] of entries.slice(0, maxEntries)) {
    const size = JSON.stringify(entry).length + entryKey.length + 4;
    if (chars + size > maxChars) continue;
    kept[entryKey] = entry;
    chars += size;
  }
  writeString(storageKeys.lastGood, JSON.stringify(kept));
}

/** The saved answer for `key` when `check` accepts it. */
export function recall<T>(key: string, check: (value: unknown) => value is T): T | undefined {
  const entry = readStore()[key];
  return entry !== undefined && check(entry.data) ? entry.data : undefined;
}

const stale = new WeakSet<object>();

/** Whether `data` came from the saved copy rather than from the server. */
export const isStale = (data: unknown): boolean => typeof data === 'object' && data !== null && stale.has(data);

/** A failure the saved copy may stand in for: no answer at all, or a gateway answering for a
 * dead server. An answer of the wrong shape, a refusal in the envelope, or a 4xx is the server
 * speaking, and stays an error. */
function noAnswer(error: unknown): boolean {
  if (error instanceof WrongShapeError || error instanceof ApiFailure) return false;
  return !(error instanceof HttpError && error.status < 500);
}

/**
 * Runs `load`; a good answer is saved under `key`. When `load` fails for want of an answer and
 * a saved copy exists, answers that copy (isStale tells) instead of the error.
 */
export async function withLastGood<T extends object>(
  key: string,
  load: () => Promise<T>,
  check: (value: unknown) => value is T,
): Promise<T> {
  try {
    const data = await load();
    remember(key, data);
    return data;
  } catch (error) {
    const saved = noAnswer(error) ? recall(key, check) : undefined;
    if (saved === undefined) throw error;
    logFailure(`${key}: showing the copy saved earlier`, error);
    stale.add(saved);
    return saved;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A list whose every item passes `item`. */
export const listOf =
  <T>(item: (value: unknown) => value is T) =>
  (value: unknown): value is T[] =>
    Array.isArray(value) && value.every(item);

/** The fields `names` are all strings (the rest of a saved object is not trusted further). */
export const hasStrings =
  <T>(...names: string[]) =>
  (value: unknown): value is T =>
    isRecord(value) && names.every((name) => typeof value[name] === 'string');
