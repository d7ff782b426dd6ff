/** The HTTP rules a download follows (RFC 9110 sections 13 and 14): which part of the file to
 * send, and whether the client's copy is still good. Pure functions of the request's headers. */
import type { ByteRange } from '../storage/index.js';

export type RangeAnswer = { kind: 'whole' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

/** One range of `bytes=a-b`, `bytes=a-` or `bytes=-n`. Several ranges, another unit or a
 * malformed header are answered with the whole file, which the RFC allows (a server may ignore
 * Range); only a well-formed range wholly past the end is 416. */
export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: 'whole' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (match === null) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (last !== '' && end < start) return { kind: 'whole' }; // invalid per the RFC: ignored
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', range: { start, end: Math.min(end, size - 1) } };
}

/** If-Range: the range applies only to the same file. An entity tag must match strongly; a date
 * must equal Last-Modified exactly. */
export function ifRangeHolds(header: string | undefined, etag: string, lastModified: string): boolean {
  if (header === undefined) return true;
  const value = header.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag;
  const date = Date.parse(value);
  return !Number.isNaN(date) && date === Date.parse(lastModified);
}

/** If-None-Match (any of the tags, compared weakly, or *), else If-Modified-Since. */
export function notModified(
  headers: { 'if-none-match'?: string | undefined; 'if-modified-since'?: string | undefined },
  etag: string,
  lastModified: string,
): boolean {
  const noneMatch = headers['if-none-match'];
  if (noneMatch !== undefined) {
    const bare = etag.replace(/^W\//, '');
    return noneMatch
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === '*' || tag === bare);
  }
  const since = headers['if-modified-since'];
  if (since === undefined) return false;
  const date = Date.parse(since);
  return !Number.isNaN(date) && Date.parse(lastModified) <= date;
}

/** `attachment; filename="fallback"; filename*=UTF-8''…` (RFC 6266 with RFC 8187): the ASCII
 * fallback for old clients, the real name for the rest. */
export function contentDisposition(type: 'inline' | 'attachment', name: string, asciiFallback: string): string {
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${asciiFallback}"; filename*=UTF-8''${encoded}`;
}

/** created_at (an ISO instant) as an HTTP date, which has whole seconds. */
export function httpDate(iso: string): string {
  return new Date(iso).toUTCString();
}
