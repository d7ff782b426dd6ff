/** Conversions between stored instants (ISO-8601 UTC) and the wire's "YYYY-MM-DD HH:MM:SS" in
 * the server's time zone. The formatting is the contract's, which the site reads with.
 *
 * A server process makes TIME_ZONE its local time (`useAsLocalTime`) and reads the wall clock
 * with Date's local-time methods: an `Intl.DateTimeFormat` would touch about 8 MB of the ICU
 * data in the Node binary in every process, the local time about 1 MB
 * (docs/performance.md#footprint). Both read the same ICU zone data; any other zone, and
 * instants before 1900 (local mean times, the Julian calendar), go through the contract's Intl
 * formatting. */
import { anyWallClock } from '@chat-site/contract';

/** IANA's names for UTC itself, which `Intl.supportedValuesOf` does not list. */
const utcNames = new Set(
  ['UTC', 'UCT', 'GMT', 'GMT0', 'GMT+0', 'GMT-0', 'Greenwich', 'Universal', 'Zulu'].flatMap((name) => [
    name,
    `Etc/${name}`,
  ]),
);

/** `zone` spelt as `TZ` reads it, when that is known without asking an Intl formatter: the names
 * `Intl.supportedValuesOf` lists, in any case ("asia/shanghai"), and UTC's. Other names Intl
 * accepts (links such as Asia/Kolkata, which ICU lists as Asia/Calcutta) give undefined. */
export function localTimeName(zone: string): string | undefined {
  if (utcNames.has(zone)) return zone;
  const lower = zone.toLowerCase();
  return Intl.supportedValuesOf('timeZone').find((name) => name.toLowerCase() === lower);
}

/** The zone this process made its local time, as the configuration spells it, and as `TZ` does. */
let localZone: { configured: string; tz: string } | undefined;

/** Makes `zone` this process's local time (`TZ`) when `localTimeName` knows its spelling; other
 * zones keep the Intl path. */
export function useAsLocalTime(zone: string): void {
  const tz = localTimeName(zone);
  if (tz === undefined) return;
  process.env.TZ = tz;
  localZone = { configured: zone, tz };
}

/** Month names as English dates write them: feeds, and the site's en dates. */
export const englishMonths = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const two = (value: number) => String(value).padStart(2, '0');

export function toWireTime(instant: string | Date, timeZone: string): string {
  const date = typeof instant === 'string' ? new Date(instant) : instant;
  if (timeZone === localZone?.configured && process.env.TZ === localZone.tz) {
    const year = date.getFullYear();
    if (year >= 1900 && year <= 9999) {
      return `${year}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
    }
  }
  return anyWallClock(date.getTime(), timeZone);
}

const wirePattern = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/;

/** Reads a wall-clock time in the given zone (or any ISO-8601 instant with an offset) and
 * answers the instant as ISO UTC, or undefined when the text is not a valid time. */
export function fromWireTime(text: string, timeZone: string): string | undefined {
  const match = wirePattern.exec(text);
  if (match === null) {
    const instant = new Date(text);
    return /[zZ]|[+-]\d{2}:?\d{2}$/.test(text) && !Number.isNaN(instant.getTime()) ? instant.toISOString() : undefined;
  }
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(asUtc);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  // The zone's offset at that moment; a second pass settles times near a DST change.
  let instant = asUtc - offsetAt(asUtc, timeZone);
  instant = asUtc - offsetAt(instant, timeZone);
  return new Date(instant).toISOString();
}

function offsetAt(instant: number, timeZone: string): number {
  const wall = toWireTime(new Date(instant), timeZone);
  const [date = '', time = ''] = wall.split(' ');
  return Date.parse(`${date}T${time}Z`) - Math.floor(instant / 1000) * 1000;
}

export function nowIso(): string {
  return new Date().toISOString();
}
