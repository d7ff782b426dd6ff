/**
 * Some server builds wrap every answer in {code|errCode, msg, data} or {success, data}; the
 * canonical server sends bare bodies. Unwrapping first lets every reader handle one shape.
 */
import { isRecord, type Fields } from './fields.js';
import { ApiFailure } from './types.js';

/** Only numbers and numeric strings are codes; 0 is the one success value among them. */
function isFailureCode(value: unknown): boolean {
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string' && value.trim() !== '') {
    const code = Number(value);
    return Number.isFinite(code) && code !== 0;
  }
  return false;
}

/** msg is the contract's field; errMsg and message are what the other Go builds use. */
function failureMessage(body: Fields): string {
  for (const name of ['msg', 'errMsg', 'message']) {
    const value = body[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return 'the server reported a failure';
}

/**
 * The payload of an answer: `data` when the body is an envelope, else the body itself.
 * Throws ApiFailure when the envelope (or a data-less object) carries a failure marker.
 */
export function unwrapEnvelope(body: unknown): unknown {
  if (!isRecord(body)) return body;
  if (isFailureCode(body.code) || isFailureCode(body.errCode) || body.success === false) {
    throw new ApiFailure(failureMessage(body));
  }
  return Object.prototype.hasOwnProperty.call(body, 'data') ? body.data : body;
}
