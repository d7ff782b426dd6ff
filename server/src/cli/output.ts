/**
 * Plain text for the operator to read, or JSON for a script to parse. Everything the command line
 * writes goes through here, so that text from the database (an editor's title, a file name)
 * cannot move the cursor, recolour or retitle the terminal, fake a row, or reorder what is shown:
 * control characters (C0, DEL, C1) and bidi controls are shown as escapes (`\n`, `\x1b`,
 * `\u202e`), docs/configuration.md#the-admin-command-line.
 */

const unsafe = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;
/** What JSON.stringify leaves raw: it escapes C0 itself, and its own line breaks are layout. */
const unsafeInJson = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu;
const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOne(char: string): string {
  const code = char.charCodeAt(0);
  return named[char] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`);
}

/** `text` with every control and bidi character shown as an escape: one line, as written. */
export function visible(text: string): string {
  return text.replace(unsafe, escapeOne);
}

/** Lines of text; a line break in it stays one, everything else is made visible. */
export function print(text = ''): void {
  process.stdout.write(`${text.split('\n').map(visible).join('\n')}\n`);
}

/** JSON escapes C0 characters itself; DEL, C1 and bidi controls get \u escapes too. */
export function printJson(value: unknown): void {
  const text = JSON.stringify(value, null, 2).replace(
    unsafeInJson,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  process.stdout.write(`${text}\n`);
}

/** An `error:` or `warning:` line on standard error, made visible like the rest. */
export function printProblem(kind: 'error' | 'warning', message: string): void {
  process.stderr.write(`${kind}: ${visible(message)}\n`);
}

/** Columns padded to their widest cell; the last column is left ragged so long titles and URLs
 * do not push every row wider. */
export function printTable(headers: string[], rows: string[][]): void {
  const shown = rows.map((row) => row.map(visible));
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...shown.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ');
  print(line(headers));
  for (const row of shown) print(line(row));
}

/** One `name  value` line per field, names aligned; absent values show as a dash. */
export function printFields(fields: Record<string, string | number | null | undefined>, indent = ''): void {
  const width = Math.max(...Object.keys(fields).map((name) => name.length));
  for (const [name, value] of Object.entries(fields)) {
    print(`${indent}${name.padEnd(width)}  ${value === null || value === undefined ? '-' : visible(String(value))}`);
  }
}
