/** Conversions between stored instants (ISO-8601 UTC) and the wire's "YYYY-MM-DD HH:MM:SS" in
 * the server's time zone. The formatting is the contract's, which the site reads with. */
import { anyWallClock } from '@chat-site/contract';

export function toWireTime(instant: string | Date, timeZone: string): string {
  return anyWallClock((typeof instant === 'string' ? new Date(instant) : instant).getTime(), timeZone);
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
