/**
 * The announcements screen's first rows written into its frame in the page, so a phone draws
 * them in its first paint, with no script and no API round trip
 * (docs/performance.md#the-largest-paint-of-each-screen). The build puts two sample rows of
 * the list beside the frame (web/build/prerender.ts, `<template data-early-rows>`: the first
 * row selected and pinned, the other neither), for web/src/early-list.ts to copy; here the
 * server copies them instead, fills them as that script would, puts the list where the frame
 * shows its loading line, and leaves the samples out. web/src/boot-route.ts sees the first
 * title's `elementtiming` mark and lets the site's script take over as from the drawn list.
 */
import {
  earlyListTiming,
  earlyRowsAttribute,
  escapeHtml,
  fieldAttribute,
  loadingAttribute,
  routeAttribute,
  type Bulletin,
} from '@chat-site/contract';
import { rowDate } from './row-date.js';

/** Rows a phone shows in view (412 × 823): ten one-line titles reach the bottom of the screen;
 * the rest come with the site's script. */
export const earlyRowCount = 10;

/** The page cut where the rows go: the frame's loading line, and the samples, both cut out. */
interface RowsSlot {
  /** The page up to the loading line, between it and the samples, and after the samples. */
  pieces: [string, string, string];
  /** The list's markup before the first row, after the last. */
  head: string;
  tail: string;
  /** The sample rows: the first (selected, pinned) and any other (neither). */
  first: string;
  other: string;
}

const samples = `<template ${earlyRowsAttribute}>`;

/** Where the rows of `page` go; null for a page without the announcements frame or samples. */
function findRowsSlot(page: string): RowsSlot | null {
  const frame = page.indexOf(`<template ${routeAttribute}="/announcements"`);
  const mark = page.indexOf(` ${loadingAttribute}=`, frame);
  const loadingStart = page.lastIndexOf('<p ', mark);
  const loadingEnd = page.indexOf('</p>', mark) + '</p>'.length;
  const samplesStart = page.indexOf(samples, loadingEnd);
  const samplesEnd = page.indexOf('</template>', samplesStart);
  if (frame < 0 || mark < 0 || loadingStart < frame || samplesStart < 0 || samplesEnd < 0) return null;
  const view = page.slice(samplesStart + samples.length, samplesEnd);
  const rowsStart = view.indexOf('<li>');
  const second = view.indexOf('<li>', rowsStart + 1);
  const rowsEnd = view.indexOf('</ul>', second);
  if (rowsStart < 0 || second < 0 || rowsEnd < 0 || !view.includes(`${fieldAttribute}="pinned"`)) return null;
  return {
    pieces: [
      page.slice(0, loadingStart),
      page.slice(loadingEnd, samplesStart),
      page.slice(samplesEnd + '</template>'.length),
    ],
    head: view.slice(0, rowsStart),
    tail: view.slice(rowsEnd),
    first: view.slice(rowsStart, second),
    other: view.slice(second, rowsEnd),
  };
}

/** `page` with `items` as the list's first rows, in `language`; as built when there are none. */
export function withEarlyRows(page: string, items: Bulletin[], language: string): string {
  const slot = items.length === 0 ? null : findRowsSlot(page);
  if (slot === null) return page;
  const pinned = new RegExp(`<span [^>]*${fieldAttribute}="pinned"[^>]*>[^<]*</span>`).exec(slot.first)?.[0] ?? '';
  const title = new RegExp(`<span [^>]*${fieldAttribute}="title"`);
  const rows = items.slice(0, earlyRowCount).map((item, index) => {
    let row = (index === 0 ? slot.first : slot.other).replace(pinned, '');
    row = row.replace(
      / href="([^"]*\/)[^"/]*"/,
      (_whole, start: string) => ` href="${start}${encodeURIComponent(item.id)}"`,
    );
    row = fill(row, 'date', escapeHtml(rowDate(item.createdAt, language)));
    const mark = index === 0 ? ` elementtiming="${earlyListTiming}"` : '';
    row = fill(row, 'title', escapeHtml(item.title), mark);
    return item.pinned ? row.replace(title, (span) => pinned + span) : row;
  });
  const [before, between, after] = slot.pieces;
  return `${before}${slot.head}${rows.join('')}${slot.tail}${between}${after}`;
}

/** `row` with `text` in its empty field `name`, and `attributes` on that field. */
function fill(row: string, name: string, text: string, attributes = ''): string {
  const field = `${fieldAttribute}="${name}"`;
  const at = row.indexOf(field);
  const end = row.indexOf('>', at);
  if (at < 0 || end < 0) return row;
  return `${row.slice(0, at)}${field}${attributes}${row.slice(at + field.length, end + 1)}${text}${row.slice(end + 1)}`;
}
