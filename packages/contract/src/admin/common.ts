/** Pieces every admin area's schemas share (docs/admin-api.md#the-admin-wire-types). */
import { Type } from 'typebox';

/** Ids fit a 32-bit signed integer in both databases. */
export const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const IdParams = Type.Object({ id: Id });

/** HttpUrlString's pattern, for a server that tests it without loading a validator. */
export const httpUrlPattern = '^https?://[^\\s/?#]+[^\\s]*$';

export const HttpUrlString = Type.String({ pattern: httpUrlPattern, maxLength: 2048 });

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

/** A page number of a list; how many a page holds differs by list. */
export const PageIndex = Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 });

/** What an answer without a body is described as (204). */
export const NoContent = Type.Null();
