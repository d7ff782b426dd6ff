/** The console's announcements: the admin view of one, its list, and what a save sends
 * (docs/behaviour.md#announcements-for-operators). */
import { Type, type Static } from 'typebox';
import { Flag, paging, Timestamp } from '../canonical.js';
import { Nullable, PageIndex } from './common.js';
import { bulletinTitleMaxLength } from '../bulletin-limits.js';

/** The traditional Chinese and English versions (docs/behaviour.md#announcements-in-every-language),
 * which an announcement, its revisions, the trash and the audit carry alike. */
export const LanguageVersions = Type.Object({
  title_tw: Type.String(),
  content_tw: Type.String(),
  /** 1: the operator wrote the traditional version; 0: it is made from the simplified. */
  tw_by_hand: Flag,
  /** Empty: no English version (the English site shows the Chinese and says so). */
  title_en: Type.String(),
  content_en: Type.String(),
});
export type LanguageVersions = Static<typeof LanguageVersions>;

export const bulletinStatuses = ['draft', 'scheduled', 'published'] as const;
export type BulletinStatus = (typeof bulletinStatuses)[number];

export const AdminBulletin = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  content: Type.String(),
  topup: Flag,
  status: Type.Union([Type.Literal('draft'), Type.Literal('scheduled'), Type.Literal('published')]),
  /** When it is (or will be) public: "YYYY-MM-DD HH:MM:SS" in TIME_ZONE. */
  publish_at: Type.String(),
  updated_at: Type.String(),
  version: Type.Integer(),
  /** When it goes back to being a draft by itself, in TIME_ZONE; null: never. */
  unpublish_at: Nullable(Type.String()),
  /** When it stops being pinned by itself, in TIME_ZONE; null: never. */
  unpin_at: Nullable(Type.String()),
  ...LanguageVersions.properties,
});
export type AdminBulletin = Static<typeof AdminBulletin>;

export const listFilters = ['all', 'published', 'pinned', 'draft', 'scheduled'] as const;
export type ListFilter = (typeof listFilters)[number];

export const AdminBulletinQuery = Type.Object({
  q: Type.String({ maxLength: 200, default: '' }),
  filter: Type.Union(
    [
      Type.Literal('all'),
      Type.Literal('published'),
      Type.Literal('pinned'),
      Type.Literal('draft'),
      Type.Literal('scheduled'),
    ],
    { default: 'all' },
  ),
  page_index: PageIndex,
  page_size: Type.Integer({ minimum: 1, maximum: paging.maxPageSize, default: 20 }),
});

export const AdminBulletinPage = Type.Object({ count: Type.Integer(), list: Type.Array(AdminBulletin) });
export type AdminBulletinPage = Static<typeof AdminBulletinPage>;

const Title = Type.String({ minLength: 1, maxLength: bulletinTitleMaxLength, pattern: '\\S' });
const Content = Type.String({ maxLength: 1_000_000 });
const State = Type.Union([Type.Literal('draft'), Type.Literal('published')]);
/** When it becomes public; null: now. */
const PublishAt = Nullable(Timestamp);
/** When it stops by itself; null: never (docs/behaviour.md#announcements-that-stop-by-themselves). */
export const EndTime = Nullable(Timestamp);
/** The version a save started from, when If-Match does not name it. */
const Version = Type.Integer({ minimum: 1 });
/** What a save may say about the other languages: a traditional title or body written by hand
 * (the other one is kept or made), 重新转换 (`reconvert: 1`: follow the simplified again), and
 * the English, where an empty title means none. */
const LanguageFields = {
  title_tw: Type.Optional(Type.String({ maxLength: bulletinTitleMaxLength })),
  content_tw: Type.Optional(Content),
  reconvert: Type.Optional(Flag),
  title_en: Type.Optional(Type.String({ maxLength: bulletinTitleMaxLength })),
  content_en: Type.Optional(Content),
};

export const BulletinCreateBody = Type.Object(
  {
    title: Title,
    content: Content,
    topup: Type.Optional(Flag),
    state: Type.Optional(State),
    publish_at: Type.Optional(PublishAt),
    unpublish_at: Type.Optional(EndTime),
    unpin_at: Type.Optional(EndTime),
    ...LanguageFields,
  },
  { additionalProperties: false },
);
export type BulletinCreateBody = Static<typeof BulletinCreateBody>;

export const BulletinUpdateBody = Type.Object(
  {
    title: Type.Optional(Title),
    content: Type.Optional(Content),
    topup: Type.Optional(Flag),
    state: Type.Optional(State),
    publish_at: Type.Optional(PublishAt),
    unpublish_at: Type.Optional(EndTime),
    unpin_at: Type.Optional(EndTime),
    version: Type.Optional(Version),
    ...LanguageFields,
  },
  { additionalProperties: false, minProperties: 1 },
);
export type BulletinUpdateBody = Static<typeof BulletinUpdateBody>;

/** The answer of a new announcement, or of a copy of one. */
export const BulletinCreated = Type.Object({ id: Type.Integer(), version: Type.Integer() });
export type BulletinCreated = Static<typeof BulletinCreated>;

/** The 409 of a save that started from an older version than `current`. */
export const VersionConflict = Type.Object({
  status: Type.Literal(409),
  msg: Type.String(),
  code: Type.Literal('version_conflict'),
  current: AdminBulletin,
  /** Who saved `current`, from the audit log; null when nothing recorded it. */
  saved_by: Nullable(Type.String()),
});
export type VersionConflict = Static<typeof VersionConflict>;

export const RevisionRestoreBody = Type.Object({ version: Type.Optional(Version) }, { additionalProperties: false });
export type RevisionRestoreBody = Static<typeof RevisionRestoreBody>;
