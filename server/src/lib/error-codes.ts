/**
 * The stable machine codes of the admin API's refusals (docs/admin-api.md#error-codes): scripts
 * keep reading `msg` in English, the console shows its own text for each code. The public API
 * never carries them (its wire is fixed: docs/public-api.md#the-public-api).
 */
import { Type } from 'typebox';

export const errorCodes = {
  invalid_field: 'A field is invalid; `field` names it',
  missing_field: 'A required field is missing; `field` names it',
  unknown_field: 'The body has a field this call does not take; `field` names it',
  too_long: 'A text or list in `field` is longer than `limit` characters or entries',
  too_short: 'A text or list in `field` is shorter than `limit` characters or entries',
  out_of_range: 'A number in `field` is outside what it may be; `limit` is the bound it crossed',
  duplicate: 'The address in `field` is already in its list',
  bad_json: 'The body is not valid JSON',
  bad_request: 'Another invalid request; `msg` says what',
  bad_file_type: "The file name's extension is not one this call takes, or does not match the content",
  too_large: 'The body or file is larger than `limit` bytes (`size`: what was sent, when known)',
  unsupported_type: 'The body has a Content-Type or Content-Encoding this call does not take',
  wrong_password: 'The current password is wrong',
  wrong_credentials: 'Wrong user name or password',
  no_password: 'The admin token has no password to change',
  signed_out: 'No valid credentials: the session ended or expired',
  forbidden: 'This operator or origin may not do this',
  not_found: 'What the call names does not exist (or no longer)',
  version_conflict: 'Someone saved the announcement since it was opened; `current` is what is saved now',
  in_use: 'The file is still used; `used_by` names by what',
  file_deleted: "The release's hosted file was deleted",
  bad_signature: 'The Tauri signature is not a whole minisign signature, or its trusted comment was changed',
  signature_wrong_key: 'The Tauri signature was made with another key than TAURI_PUBLIC_KEY; `found` is its key id',
  signature_mismatch: "The Tauri signature does not verify against the release's hosted file",
  signature_other_file: 'The Tauri signature names another file in its trusted comment; `found` is that name',
  signature_other_version: 'The Tauri signature names another version in its trusted comment; `found` is that version',
  payload_wrong_platform: 'An update payload was given for a platform that has none (android, ios); `field` names it',
  payload_wrong_kind: "An update payload's file is not of the kind its role and platform take; `found` is its name",
  payload_repeated: 'Two update payloads have the same role and architecture; `found` names them',
  conflict: 'The request conflicts with what is stored',
  rate_limited: 'Too many attempts; Retry-After says when to try again',
  busy: 'The server is busy; Retry-After says when to try again',
  storage_full: 'The file storage is full',
  server_error: 'The server failed; its log says why',
} as const;

export type ErrorCode = keyof typeof errorCodes;

/** What an admin refusal carries beside {status, msg}; every field but `code` only when it applies. */
export const adminErrorFields = {
  code: Type.Union(
    (Object.keys(errorCodes) as ErrorCode[]).map((code) => Type.Literal(code, { description: errorCodes[code] })),
  ),
  field: Type.Optional(Type.String({ description: 'The field at fault, as `api_addrs[1].addr`' })),
  limit: Type.Optional(Type.Integer({ description: 'The limit crossed: characters, entries or bytes' })),
  size: Type.Optional(Type.Integer({ description: 'The size sent, in bytes' })),
  found: Type.Optional(
    Type.String({ description: "What the server found in place of the value sent: an APK's own version" }),
  ),
};

/** The code a refusal gets when nothing more precise is known: by its status alone. */
export function codeForStatus(status: number): ErrorCode {
  const byStatus: Record<number, ErrorCode> = {
    400: 'bad_request',
    401: 'signed_out',
    403: 'forbidden',
    404: 'not_found',
    409: 'conflict',
    413: 'too_large',
    414: 'too_long',
    415: 'unsupported_type',
    429: 'rate_limited',
    503: 'busy',
    507: 'storage_full',
  };
  return byStatus[status] ?? (status >= 500 ? 'server_error' : 'bad_request');
}

/**
 * A JSON pointer or a message's prefix (`body/api_addrs/1/addr`, `/api_addrs/1/addr`) as the
 * plain path the console reads: `api_addrs[1].addr`.
 */
export function fieldPath(pointer: string): string {
  const parts = pointer
    .replace(/^(body|querystring|query|params|headers)(?=\/|$)/, '')
    .split('/')
    .filter((part) => part !== '')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
  return parts.reduce(
    (path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path === '' ? part : `${path}.${part}`),
    '',
  );
}
