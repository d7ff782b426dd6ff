import { ErrorBody } from '@chat-site/contract';
import { httpUrlPattern } from '@chat-site/contract/admin';

// The admin API's shared pieces live with its schemas; the public routes and the command line
// take them from here too.
export { HttpUrlString, Id } from '@chat-site/contract/admin';

/** HttpUrlString's pattern, tested as TypeBox and Ajv test it (with the `u` flag). A plain
 * RegExp rather than TypeBox's Value.Check, which would load typebox/value into every worker
 * for this one test (docs/performance.md#footprint). Its maxLength is checked first below. */
const httpUrlRegExp = new RegExp(httpUrlPattern, 'u');

/**
 * An error a route's handler answers ({status, msg}), described for the OpenAPI document. The
 * errors every route of a kind shares (invalid input, the admin door) are added there
 * (ops/openapi-operations.ts).
 */
export const errorResponse = (description: string) => ({ ...ErrorBody, description });

/**
 * Where a download address may point, wherever one comes in (the package list, a release, the
 * command line): an absolute http(s) URL, or a path relative to the download base address (the
 * stored one, else the site's appUrl; file/preview/<key> names a file this server hosts). Nothing
 * in it that a page or a terminal would read as something else: no white space, control
 * characters, bidi controls, quotes, < > or backslash. An absolute one is `http(s)://host...` as
 * written (not `https:host`, which a browser reads as a path). A relative path does not start
 * with `//` (that names another host) and holds no `..` segment (it would climb out of the base).
 * Answers what is wrong, or undefined when `text` is fine. See docs/public-api.md#downloads.
 */
export function downloadUrlProblem(text: string): string | undefined {
  if (text.length === 0 || text.length > 2048) return 'must have 1 to 2048 characters';
  if (/\s/.test(text)) return 'must not contain white space';
  if (/[\p{Cc}\u202a-\u202e\u2066-\u2069]/u.test(text)) return 'must not contain control characters';
  if (/["'<>`]/.test(text)) return 'must not contain quotes, < or >';
  if (/^[a-z][a-z0-9+.-]*:/i.test(text)) {
    const absolute = httpUrlRegExp.test(text) && !text.includes('\\') && URL.canParse(text);
    return absolute ? undefined : 'must be an http(s) URL or a relative path';
  }
  if (/^[/\\]{2}/.test(text)) return 'must not start with // (an address of another host)';
  if (text.includes('\\')) return 'must use / between path segments';
  const path = text.replace(/[?#].*$/, '');
  const segments = path.split('/').map((segment) => safeDecode(segment));
  if (segments.includes('..')) return 'must not contain .. segments';
  return undefined;
}

/** A CDN bucket URL: a download address that is absolute, and without a query or fragment, since
 * a file's key is appended to its path (docs/public-api.md#cdn-rewriting). */
export function bucketUrlProblem(text: string): string | undefined {
  const problem = downloadUrlProblem(text);
  if (problem !== undefined) return problem;
  if (!/^https?:\/\//i.test(text)) return 'must be an http(s) URL';
  if (/[?#]/.test(text)) return 'must not have a query or fragment (? or #): file keys are added to its path';
  return undefined;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A text answer (a page, a feed, a script), for the OpenAPI document: Fastify sends it as it is. */
export const textResponse = (contentType: string, description: string) => ({
  description,
  content: { [contentType]: { schema: { type: 'string' } } },
});
