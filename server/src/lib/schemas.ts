import { ErrorBody } from '@chat-site/contract';
import { Type } from 'typebox';

/** Ids fit a 32-bit signed integer in both databases. */
export const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const HttpUrlString = Type.String({ pattern: '^https?://[^\\s/?#]+[^\\s]*$', maxLength: 2048 });

export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  404: ErrorBody,
  413: ErrorBody,
  415: ErrorBody,
} as const;
