/** Checks of single arguments and options, given to commander so that a bad value is reported
 * with the name of the option it came in, before any database is opened. */
import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import { Value } from 'typebox/value';
import { isHttpUrl } from '../config.js';
import { bucketUrlProblem, HttpUrlString } from '../lib/schemas.js';
import { fromWireTime } from '../lib/time.js';
import { timeZone, UsageError } from './context.js';

const maxId = 2_147_483_647;

export function parseId(text: string): number {
  const id = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(id) || id < 1 || id > maxId) {
    throw new InvalidArgumentError(`an id is a whole number from 1 to ${maxId}`);
  }
  return id;
}

export function parseTitle(text: string): string {
  const title = text.trim();
  if (title.length < 1 || title.length > 200) {
    throw new InvalidArgumentError('a title has 1 to 200 characters (surrounding spaces are dropped)');
  }
  return title;
}

/** The same rule as the admin API: an absolute http(s) URL without spaces. */
export function isHttpAddress(text: string): boolean {
  return Value.Check(HttpUrlString, text) && isHttpUrl(text);
}

export function parseHttpUrl(text: string): string {
  if (!isHttpAddress(text)) throw new InvalidArgumentError('expected an http:// or https:// URL');
  return text;
}

/** A CDN bucket URL, by the admin API's rule (lib/schemas.ts). */
export function parseBucketUrl(text: string): string {
  const problem = bucketUrlProblem(text);
  if (problem !== undefined) throw new InvalidArgumentError(`a CDN bucket URL ${problem}`);
  return text;
}

/** Repeatable URL option: collects every occurrence. */
export function collectHttpUrl(text: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), parseHttpUrl(text)];
}

export function parseVersion(text: string): string {
  if (text.length < 1 || text.length > 64) throw new InvalidArgumentError('a version has 1 to 64 characters');
  return text;
}

/** A wall-clock time in TIME_ZONE, as the site shows it; answers the ISO instant to store. */
export function parseWireTime(text: string): string {
  const instant = fromWireTime(text, timeZone());
  if (instant === undefined) {
    throw new InvalidArgumentError('expected a real date and time as "YYYY-MM-DD HH:MM:SS"');
  }
  return instant;
}

export function readBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

export function readText(path: string): string {
  return readBytes(path).toString('utf8');
}
