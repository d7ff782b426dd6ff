/** An announcement's revisions and the trash (docs/console.md#revisions, docs/console.md#trash). */
import { Type, type Static } from 'typebox';
import { Flag, paging } from '../canonical.js';
import { AdminBulletin, LanguageVersions } from './bulletins.js';
import { Id, Nullable, PageIndex } from './common.js';

export const RevisionSummary = Type.Object({
  id: Type.Integer(),
  /** The announcement's version this save made. */
  version: Type.Integer(),
  title: Type.String(),
  topup: Flag,
  state: Type.Union([Type.Literal('draft'), Type.Literal('published')]),
  /** When it was to be public: "YYYY-MM-DD HH:MM:SS" in TIME_ZONE. */
  publish_at: Type.String(),
  action: Type.Union([Type.Literal('create'), Type.Literal('update'), Type.Literal('restore')]),
  /** For a restore: the revision written back. */
  restored_from: Nullable(Type.Integer()),
  /** Who saved it: an account's name, `admin-token` or `cli`. */
  by: Type.String(),
  at: Type.String(),
});
export type RevisionSummary = Static<typeof RevisionSummary>;

export const RevisionList = Type.Object({ list: Type.Array(RevisionSummary) });
export type RevisionList = Static<typeof RevisionList>;

/** One revision, read by itself: with its text. */
export const Revision = Type.Intersect([
  RevisionSummary,
  Type.Object({ content: Type.String(), ...LanguageVersions.properties }),
]);
export type Revision = Static<typeof Revision>;

export const RevisionParams = Type.Object({ id: Id, revision: Id });

export const TrashItem = Type.Intersect([
  AdminBulletin,
  Type.Object({
    deleted_at: Type.String(),
    /** When the server purges it by itself: 30 days after deleted_at. */
    purge_at: Type.String(),
  }),
]);
export type TrashItem = Static<typeof TrashItem>;

export const TrashQuery = Type.Object({
  page_index: PageIndex,
  page_size: Type.Integer({ minimum: 1, maximum: paging.maxPageSize, default: 20 }),
});

export const TrashPage = Type.Object({ count: Type.Integer(), list: Type.Array(TrashItem) });
export type TrashPage = Static<typeof TrashPage>;
