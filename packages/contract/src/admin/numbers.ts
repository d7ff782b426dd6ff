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

export const DownloadStats = Type.Object({
  from: Type.String(),
  to: Type.String(),
  time_zone: Type.String(),
  days: Type.Array(Type.Intersect([Type.Object({ day: Type.String() }), DownloadCounts])),
  total: DownloadCounts,
});
export type DownloadStats = Static<typeof DownloadStats>;

export const DownloadStatsQuery = Type.Object(
  {
    days: Type.Union([Type.Literal(7), Type.Literal(30), Type.Literal(90)], { default: 30 }),
    format: Type.Union([Type.Literal('json'), Type.Literal('csv')], { default: 'json' }),
  },
  { additionalProperties: false },
);
