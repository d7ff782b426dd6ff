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

/** Who has updated (docs/releases.md#who-has-updated): a platform's installs seen per day by the
 * version they reported, and its current release. */
export const UpdateStats = Type.Object({
  os: Type.String(),
  from: Type.String(),
  to: Type.String(),
  time_zone: Type.String(),
  /** Every version seen in these days, newest published first; `other` last. */
  versions: Type.Array(Type.String()),
  /** Oldest first: installs that checked that day per version (absent: none), and all checks. */
  days: Type.Array(
    Type.Object({ day: Type.String(), installs: Type.Record(Type.String(), Type.Integer()), checks: Type.Integer() }),
  ),
  /** The version the platform offers now; null when none. */
  current: Type.Union([Type.String(), Type.Null()]),
});
export type UpdateStats = Static<typeof UpdateStats>;

export const UpdateStatsQuery = Type.Object(
  {
    os: Type.Union([Type.Literal('android'), Type.Literal('ios'), Type.Literal('windows'), Type.Literal('mac')]),
    days: Type.Union([Type.Literal(7), Type.Literal(30), Type.Literal(90)], { default: 30 }),
  },
  { additionalProperties: false },
);
export type UpdateStatsQuery = Static<typeof UpdateStatsQuery>;
