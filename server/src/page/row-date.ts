/**
 * A row's date as the site's script writes it (the contract's `formatDate`) in each of the site's
 * languages, written out here for the server's early rows: the contract asks an
 * `Intl.DateTimeFormat` for zh-TW and en, which would cost each worker about 8 MB of ICU data
 * (docs/memory.md#dates-without-intl). server/test/row-date.test.ts holds these to the contract's
 * output, day by day.
 */
import { formatDate } from '@chat-site/contract';
import { englishMonths } from '../lib/time.js';

export function rowDate(createdAt: string, language: string): string {
  if (language !== 'zh-TW' && language !== 'en') return formatDate(createdAt, language);
  // zh-CN's form is the numbers as sent, with no formatter: "2024-05-01", or "" with no date.
  const numeric = formatDate(createdAt, 'zh-CN');
  if (numeric === '') return numeric;
  const [year, month, day] = numeric.split('-').map(Number) as [number, number, number];
  // Years before 1000 take the contract's own path, which Date reads as 19xx.
  if (year < 1000) return formatDate(createdAt, language);
  // A day past the month's end (02-30) is shown as sent, in every language.
  if (new Date(Date.UTC(year, month - 1, day)).getUTCMonth() !== month - 1) return numeric;
  if (language === 'zh-TW') return numeric.replaceAll('-', '/');
  return `${englishMonths[month - 1]} ${day}, ${year}`;
}
