/** The console's numbers: downloads through /dl per platform per day (docs/admin-api.md#the-admin-api). */
import { Type, type Static } from 'typebox';

export const DownloadCounts = Type.Object({
  android: Type.Integer(),
  ios: Type.Integer(),
  windows: Type.Integer(),
  mac: Type.Integer(),
  harmonyos: Type.Integer(),
  total: Type.Integer(),
});
export type DownloadCounts = Static<typeof DownloadCounts>;

/** Visits from the chat apps' built-in browsers (download screen, tutorial, /dl) and the guides
 * shown there instead of a download they block (docs/site.md#in-app-browsers). */
export const InAppCounts = Type.Object({ visits: Type.Integer(), guides: Type.Integer() });
export type InAppCounts = Static<typeof InAppCounts>;

export const DownloadStats = Type.Object({
  from: Type.String(),
  to: Type.String(),
  time_zone: Type.String(),
  days: Type.Array(Type.Intersect([Type.Object({ day: Type.String() }), DownloadCounts])),
  total: DownloadCounts,
  /** Beside the downloads, one entry per day in the same order, and their sum. */
  in_app: Type.Object({ days: Type.Array(InAppCounts), total: InAppCounts }),
});
export type DownloadStats = Static<typeof DownloadStats>;

export const DownloadStatsQuery = Type.Object(
  {
    days: Type.Union([Type.Literal(7), Type.Literal(30), Type.Literal(90)], { default: 30 }),
    format: Type.Union([Type.Literal('json'), Type.Literal('csv')], { default: 'json' }),
  },
  { additionalProperties: false },
);
