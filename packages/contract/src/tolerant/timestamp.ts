/**
 * Every timestamp becomes the canonical wall-clock text of the server's time zone, so screens
 * show the same date whatever the server build sent, and slice it without date arithmetic.
 */

const canonicalPattern = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const dateOnlyPattern = /^\d{4}-\d{2}-\d{2}$/;
const numericPattern = /^\d+(?:\.\d+)?$/;
const zonedPattern = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(\.\d+)?\s*(Z|[+-]\d{2}(?::?\d{2})?)$/i;
/** No zone given: Go and SQL drivers send this for values already in the server's wall clock. */
const unzonedPattern = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?$/;
const datePrefixPattern = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:$|[ T])/;

/** Below this a number is unix seconds; 1e12 ms is 2001, 1e12 s is year 33658. */
const secondsLimit = 1e12;

/** Building a formatter is slow on phones and a list formats many dates; one per zone is enough. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      // Not hourCycle: 'h23', which Safari before 13 ignores, writing afternoons as 01-12.
      // hour12: false is 0-23 or, in older engines, 1-24 (midnight as 24, below).
      hour12: false,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The "YYYY-MM-DD HH:MM:SS" wall clock of an instant in `timeZone`; '' for no real instant,
 * 1970 and before included, which other builds send for "unset". */
export function wallClock(epochMs: number, timeZone: string): string {
  return epochMs > 0 ? anyWallClock(epochMs, timeZone) : '';
}

/** wallClock for any instant, 1970 and before too (the server writes what it stored). */
export function anyWallClock(epochMs: number, timeZone: string): string {
  if (!Number.isFinite(epochMs)) return '';
  const date = new Date(epochMs);
  if (Number.isNaN(date.getTime())) return '';
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of formatterFor(timeZone).formatToParts(date)) parts[part.type] = part.value;
  // Some older engines still print midnight as 24 despite h23.
  const hour = parts.hour === '24' ? '00' : parts.hour;
  const text = `${(parts.year ?? '').padStart(4, '0')}-${parts.month}-${parts.day} ${hour}:${parts.minute}:${parts.second}`;
  return canonicalPattern.test(text) ? text : '';
}

/** 0 and negatives read as "unset" (Go's zero value), not as 1970. */
function fromEpochNumber(value: number, timeZone: string): string {
  return wallClock(value < secondsLimit ? value * 1000 : value, timeZone);
}

/** Date.parse reliably reads only offsets written +HH:MM (or Z). */
function isoOffset(zone: string): string {
  if (/^z$/i.test(zone)) return 'Z';
  const digits = zone.slice(1).replace(':', '');
  return `${zone.slice(0, 1)}${digits.slice(0, 2)}:${digits.slice(2).padEnd(2, '0')}`;
}

function fromZoned(match: RegExpExecArray, timeZone: string): string {
  const [, day = '', time = '', fraction = '', zone = ''] = match;
  const seconds = time.length === 5 ? ':00' : '';
  // Go sends nanoseconds; Date.parse wants at most milliseconds.
  const millis = fraction.slice(0, 4);
  return wallClock(Date.parse(`${day}T${time}${seconds}${millis}${isoOffset(zone)}`), timeZone);
}

/**
 * A timestamp of any tolerated form as "YYYY-MM-DD HH:MM:SS" in timeZone; "" when unreadable.
 * Canonical text passes through untouched because it already is server wall-clock time.
 */
export function readTimestamp(value: unknown, timeZone = 'Asia/Shanghai'): string {
  if (typeof value === 'number') return fromEpochNumber(value, timeZone);
  if (typeof value !== 'string') return '';
  const text = value.trim();
  if (canonicalPattern.test(text)) return text;
  if (dateOnlyPattern.test(text)) return `${text} 00:00:00`;
  if (numericPattern.test(text)) return fromEpochNumber(Number(text), timeZone);
  const zoned = zonedPattern.exec(text);
  if (zoned) return fromZoned(zoned, timeZone);
  const unzoned = unzonedPattern.exec(text);
  if (unzoned) return `${unzoned[1]} ${unzoned[2]}`;
  return '';
}

function dateParts(createdAt: string): [string, string, string] | undefined {
  const match = datePrefixPattern.exec(createdAt.trim());
  if (!match) return undefined;
  const [, year = '', month = '', day = ''] = match;
  const m = Number(month);
  const d = Number(day);
  if (m < 1 || m > 12 || d < 1 || d > 31) return undefined;
  return [year, month.padStart(2, '0'), day.padStart(2, '0')];
}

/** One formatter per language and shape; the calendar day is formatted in UTC so no zone moves it. */
const dayFormatters = new Map<string, Intl.DateTimeFormat>();

function localized(parts: [string, string, string], language: string, withYear: boolean): string {
  const cacheKey = `${language}|${withYear ? 'ymd' : 'md'}`;
  let formatter = dayFormatters.get(cacheKey);
  if (!formatter) {
    const english = language.toLowerCase().startsWith('en');
    formatter = new Intl.DateTimeFormat(language, {
      timeZone: 'UTC',
      ...(withYear ? { year: 'numeric' } : {}),
      month: english ? 'short' : '2-digit',
      day: english ? 'numeric' : '2-digit',
    });
    dayFormatters.set(cacheKey, formatter);
  }
  const [year, month, day] = parts.map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  // A day past the month's end (02-30) rolls over in Date; show the numbers as sent instead.
  if (date.getUTCMonth() !== month - 1) return withYear ? parts.join('-') : `${parts[1]}-${parts[2]}`;
  return formatter.format(date);
}

/** Simplified Chinese keeps the numeric form the site's copy uses ("2024-05-01"); every other
 * language gets its own convention from Intl ("2024/05/01" in zh-TW, "May 1, 2024" in en). */
const keepsNumericForm = (language: string) => language === '' || language.toLowerCase() === 'zh-cn';

/** The day for the compact list and strip ("05-01" in zh-CN); "" when the text holds no date. */
export function formatMonthDay(createdAt: string, language = 'zh-CN'): string {
  const parts = dateParts(createdAt);
  if (!parts) return '';
  return keepsNumericForm(language) ? `${parts[1]}-${parts[2]}` : localized(parts, language, false);
}

/** The date for the detail header ("2024-05-01" in zh-CN); "" when the text holds no date. */
export function formatDate(createdAt: string, language = 'zh-CN'): string {
  const parts = dateParts(createdAt);
  if (!parts) return '';
  return keepsNumericForm(language) ? parts.join('-') : localized(parts, language, true);
}
