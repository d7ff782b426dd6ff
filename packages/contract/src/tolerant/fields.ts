/**
 * Internal helpers for reading untyped JSON. Kept out of the public index: they are details of
 * how the readers cope with other server builds, not part of the site's vocabulary.
 */

export type Fields = Record<string, unknown>;

export function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first spelling that carries a value. Go servers send null for unset fields, so null counts as absent. */
export function pick(record: Fields, names: readonly string[]): unknown {
  for (const name of names) {
    const value = record[name];
    if (value !== undefined && value !== null) return value;
  }
  return undefined;
}

/** Text as sent (HTML content must keep its whitespace); anything that is not a string reads as empty. */
export function pickText(record: Fields, names: readonly string[]): string {
  const value = pick(record, names);
  return typeof value === 'string' ? value : '';
}

/** For addresses and names, where stray spaces from hand-edited server config would break lookups. */
export function pickTrimmed(record: Fields, names: readonly string[]): string {
  return pickText(record, names).trim();
}

export function trimTrailingSlashes(text: string): string {
  return text.replace(/\/+$/, '');
}

/** Same rule as the site config's HttpUrl: a scheme, a host, no whitespace anywhere. */
export const httpUrlPattern = /^https?:\/\/[^\s/?#]+\S*$/i;

/**
 * The items of a list answer in any accepted shape, or undefined when it is none of them.
 * `{list: null}` is an empty list: Go marshals an empty nil slice as null.
 */
export function listItems(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isRecord(value) || !Object.prototype.hasOwnProperty.call(value, 'list')) return undefined;
  const list = value.list;
  if (list === null) return [];
  return Array.isArray(list) ? list : undefined;
}
