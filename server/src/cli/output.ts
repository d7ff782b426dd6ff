/** Plain text for the operator to read, or JSON for a script to parse. */

export function print(text = ''): void {
  process.stdout.write(`${text}\n`);
}

export function printJson(value: unknown): void {
  print(JSON.stringify(value, null, 2));
}

/** Columns padded to their widest cell; the last column is left ragged so long titles and URLs
 * do not push every row wider. */
export function printTable(headers: string[], rows: string[][]): void {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ');
  print(line(headers));
  for (const row of rows) print(line(row));
}

/** One `name  value` line per field, names aligned; absent values show as a dash. */
export function printFields(fields: Record<string, string | number | null | undefined>, indent = ''): void {
  const width = Math.max(...Object.keys(fields).map((name) => name.length));
  for (const [name, value] of Object.entries(fields)) {
    print(`${indent}${name.padEnd(width)}  ${value ?? '-'}`);
  }
}
