/**
 * The rows of tables/<name>.jsonl: one JSON object per line, lines ended by \n alone
 * (docs/backups.md#what-the-archive-holds). JSON.stringify leaves U+2028 and U+2029 as they are, and
 * line readers that follow JavaScript's or Unicode's idea of a line (node:readline among
 * them) end a line there: so the writer escapes them, and the reader splits at \n only, which
 * also reads archives made before they were escaped. Lone surrogates and NUL are escaped by
 * JSON.stringify itself.
 */
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** One row as its line, \n included. */
export function rowLine(row: Record<string, unknown>): string {
  return `${JSON.stringify(row).replaceAll('\u2028', '\\u2028').replaceAll('\u2029', '\\u2029')}\n`;
}

/** The lines of a UTF-8 file, split at \n alone and without it; an empty last line is left out. */
export function fileLines(path: string): AsyncGenerator<string> {
  return splitLines(createReadStream(path));
}

/** The lines of UTF-8 bytes, as fileLines. */
export async function* splitLines(bytes: AsyncIterable<Buffer | Uint8Array>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of bytes) {
    rest += decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    let end = rest.indexOf('\n');
    let start = 0;
    for (; end !== -1; end = rest.indexOf('\n', start)) {
      yield rest.slice(start, end);
      start = end + 1;
    }
    rest = rest.slice(start);
  }
  rest += decoder.end();
  if (rest !== '') yield rest;
}

/** The first column of `row` holding text PostgreSQL cannot store (a NUL character), if any. */
export function columnWithNul(row: Record<string, unknown>): string | undefined {
  return Object.keys(row).find((column) => {
    const value = row[column];
    return typeof value === 'string' && value.includes('\u0000');
  });
}

/** The row a line holds, or undefined when it holds no JSON object. */
export function parseRow(line: string): Record<string, unknown> | undefined {
  try {
    const row: unknown = JSON.parse(line);
    return row !== null && typeof row === 'object' && !Array.isArray(row)
      ? (row as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
