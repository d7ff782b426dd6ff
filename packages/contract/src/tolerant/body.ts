/**
 * An answer's body as the HTTP client libraries those server builds were written for keep it: the
 * parsed JSON when the text parses, else the text itself. One server build answers the
 * install-package list with a bare text of JSON objects joined by ", ", which is no JSON as a
 * whole; kept as text, readInstallPackages reads it like the JSON-quoted string form.
 */
export function readJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
