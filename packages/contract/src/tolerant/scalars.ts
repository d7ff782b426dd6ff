/**
 * Flags and ids arrive as numbers, numeric strings or booleans depending on the server build;
 * reading them in one place keeps "is it pinned?" and "is it the same item?" consistent.
 */

/** Only an explicit 1/"1"/true counts, so a malformed value never turns the CDN or pinning on. */
export function readFlag(value: unknown): boolean {
  return value === 1 || value === '1' || value === true;
}

/** Ids as strings, so 12 from one build and "12" from another (or from the route) compare equal. */
export function readId(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'string') {
    const id = value.trim();
    return id === '' ? undefined : id;
  }
  return undefined;
}
