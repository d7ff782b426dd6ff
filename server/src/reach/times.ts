/** Feed and share-page dates, written in the operator's TIME_ZONE with its UTC offset, so a
 * reader sees the same wall-clock time as the site shows. */
import { englishMonths, toWireTime } from '../lib/time.js';

interface ZonedTime {
  /** "YYYY-MM-DD HH:MM:SS" in the zone. */
  wall: string;
  /** Minutes east of UTC. */
  offsetMinutes: number;
}

function zoned(instant: string, timeZone: string): ZonedTime {
  const seconds = Math.floor(Date.parse(instant) / 1000) * 1000;
  const wall = toWireTime(new Date(seconds), timeZone);
  const offsetMinutes = Math.round((Date.parse(`${wall.replace(' ', 'T')}Z`) - seconds) / 60_000);
  return { wall, offsetMinutes };
}

function offsetText(minutes: number, separator: string): string {
  const sign = minutes < 0 ? '-' : '+';
  const absolute = Math.abs(minutes);
  const hours = String(Math.floor(absolute / 60)).padStart(2, '0');
  return `${sign}${hours}${separator}${String(absolute % 60).padStart(2, '0')}`;
}

/** RFC 3339, as Atom, the sitemap, Open Graph and JSON-LD want it: 2024-05-01T20:00:00+08:00. */
export function rfc3339(instant: string, timeZone: string): string {
  const { wall, offsetMinutes } = zoned(instant, timeZone);
  return `${wall.replace(' ', 'T')}${offsetText(offsetMinutes, ':')}`;
}

const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** RFC 822 with a four-digit year, as RSS 2.0 wants it: Wed, 01 May 2024 20:00:00 +0800. */
export function rfc822(instant: string, timeZone: string): string {
  const { wall, offsetMinutes } = zoned(instant, timeZone);
  const [year, month, day] = wall.slice(0, 10).split('-').map(Number) as [number, number, number];
  const weekday = weekdays[new Date(Date.UTC(year, month - 1, day)).getUTCDay()];
  const date = `${String(day).padStart(2, '0')} ${englishMonths[month - 1]} ${year}`;
  return `${weekday}, ${date} ${wall.slice(11)} ${offsetText(offsetMinutes, '')}`;
}
