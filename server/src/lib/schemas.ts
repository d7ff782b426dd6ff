import { ErrorBody } from '@chat-site/contract';
import { Type } from 'typebox';
import { Value } from 'typebox/value';

/** Ids fit a 32-bit signed integer in both databases. */
export const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const HttpUrlString = Type.String({ pattern: '^https?://[^\\s/?#]+[^\\s]*$', maxLength: 2048 });

/**
 * An error a route's handler answers ({status, msg}), described for the OpenAPI document. The
 * errors every route of a kind shares (invalid input, the admin door) are added there
 * (ops/openapi-operations.ts).
 */
export const errorResponse = (description: string) => ({ ...ErrorBody, description });

/**
 * Where an install package entry may point: an absolute http(s) URL, or a path relative to the
 * download base address (the stored one, else the site's appUrl; file/preview/<key> names a file
 * this server hosts). A relative path has no scheme, does not start with `//` (that names
 * another host), holds no `..` segment (it would climb out of the base) and no white space.
 * Answers what is wrong, or undefined when `text` is fine. See docs/behaviour.md#downloads.
 */
export function downloadUrlProblem(text: string): string | undefined {
  if (text.length === 0 || text.length > 2048) return 'must have 1 to 2048 characters';
  if (/\s/.test(text)) return 'must not contain white space';
  if (/^[a-z][a-z0-9+.-]*:/i.test(text)) {
    return Value.Check(HttpUrlString, text) ? undefined : 'must be an http(s) URL or a relative path';
  }
  if (/^[/\\]{2}/.test(text)) return 'must not start with // (an address of another host)';
  if (text.includes('\\')) return 'must use / between path segments';
  const path = text.replace(/[?#].*$/, '');
  const segments = path.split('/').map((segment) => safeDecode(segment));
  if (segments.includes('..')) return 'must not contain .. segments';
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
