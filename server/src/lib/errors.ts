import type { ErrorCode } from './error-codes.js';

/** What an admin API refusal says beyond {status, msg}, for the console (docs/admin-api.md#error-codes). */
export interface ErrorDetail {
  code?: ErrorCode;
  /** The field at fault as a plain path: `api_addrs[1].addr`. */
  field?: string;
  /** The limit the field or file went over (characters, entries, bytes). */
  limit?: number;
  /** The size of what was sent, in bytes, when known. */
  size?: number;
  /** What the server found in place of the value sent: an APK's own version. */
  found?: string;
}

/** A client mistake the handler spotted itself; the error handler answers it as {status, msg}. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly detail: ErrorDetail = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const notFound = (what: string) => new HttpError(404, `${what} not found`, { code: 'not_found' });
export const badRequest = (message: string, detail: ErrorDetail = {}) => new HttpError(400, message, detail);
