/**
 * App versions as the update checks compare them (docs/releases.md#update-checks): dotted
 * numbers, so 5.10.0 is newer than 5.9.3, with an optional leading "v" and an optional
 * pre-release tag after "-", which sorts below the same numbers without one (5.0.0-beta <
 * 5.0.0). Missing parts count as 0 (5.1 = 5.1.0). Build metadata after "+" is ignored.
 */
import { appVersionPattern } from '@chat-site/contract';

export interface ParsedVersion {
  numbers: number[];
  /** The pre-release tag, or undefined for a release. */
  tag: string | undefined;
}

/** Undefined when the text is not a version this reads. */
export function parseVersion(text: string): ParsedVersion | undefined {
  const match = appVersionPattern.exec(text.trim());
  if (match === null) return undefined;
  return { numbers: (match[1] ?? '').split('.').map(Number), tag: match[2] };
}

/** Negative when a is older than b, 0 when the same, positive when newer. */
export function compareParsed(a: ParsedVersion, b: ParsedVersion): number {
  const length = Math.max(a.numbers.length, b.numbers.length);
  for (let i = 0; i < length; i++) {
    const diff = (a.numbers[i] ?? 0) - (b.numbers[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  if (a.tag === b.tag) return 0;
  if (a.tag === undefined) return 1;
  if (b.tag === undefined) return -1;
  return compareTags(a.tag, b.tag);
}

/** Pre-release tags part by part, as semver orders them: numbers below words, numbers by value. */
function compareTags(a: string, b: string): number {
  const left = a.split('.');
  const right = b.split('.');
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const x = left[i];
    const y = right[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const xNumber = /^\d+$/.test(x);
    const yNumber = /^\d+$/.test(y);
    if (xNumber && yNumber && Number(x) !== Number(y)) return Math.sign(Number(x) - Number(y));
    if (xNumber !== yNumber) return xNumber ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Whether a client at `client` should update to `latest`: true when `client` is older, or cannot
 * be read (it is then offered the current release, docs/releases.md#update-checks). */
export function isOlder(client: string, latest: ParsedVersion): boolean {
  const parsed = parseVersion(client);
  return parsed === undefined || compareParsed(parsed, latest) < 0;
}
