/**
 * The canonical wire form (docs/public-api.md#the-public-api): exactly what this project's server
 * emits.
 * Schemas double as the server's response contracts and, through `Static`, as the site's types.
 */
import { Type, type Static } from 'typebox';
import type { Language } from './language.js';

export const operatingSystems = ['android', 'ios', 'windows', 'mac'] as const;
export type OperatingSystem = (typeof operatingSystems)[number];

/** What the stable /dl links and the numbers count: the packages' systems and HarmonyOS NEXT,
 * whose link leads to its AppGallery page (docs/site.md#harmonyos-next). */
export const downloadPlatforms = [...operatingSystems, 'harmonyos'] as const;
export type DownloadPlatform = (typeof downloadPlatforms)[number];

/** "YYYY-MM-DD HH:MM:SS" in the server's configured time zone. */
export const Timestamp = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$' });

export const Flag = Type.Union([Type.Literal(0), Type.Literal(1)]);

export const ErrorBody = Type.Object({
  status: Type.Integer({ minimum: 400, maximum: 599 }),
  msg: Type.String(),
});
export type ErrorBody = Static<typeof ErrorBody>;

export const PingAnswer = Type.Object({ status: Type.Literal(200) });

export const AddrEntry = Type.Object({ addr: Type.String({ minLength: 1, maxLength: 2048 }) });

export const RegionDocument = Type.Object({
  api_addrs: Type.Array(AddrEntry, { maxItems: 50 }),
  allocator_addrs: Type.Array(AddrEntry, { maxItems: 50 }),
});
export type RegionDocument = Static<typeof RegionDocument>;

export const AppConfig = Type.Object({
  use_cdn: Flag,
  common_cdn_bucket_url: Type.String({ maxLength: 2048 }),
});
export type AppConfig = Static<typeof AppConfig>;

/** The language an announcement's title and body, or a release's notes, are in
 * (docs/public-api.md#languages). The project's server always says; other server builds do not,
 * and their text is as written. */
export const ContentLanguage = Type.Union([Type.Literal('zh-CN'), Type.Literal('zh-TW'), Type.Literal('en')]);
export type ContentLanguage = Static<typeof ContentLanguage> & Language;

export const InstallPackage = Type.Object({
  OS: Type.Union([Type.Literal('android'), Type.Literal('ios'), Type.Literal('windows'), Type.Literal('mac')]),
  DownloadURL: Type.String({ minLength: 1, maxLength: 2048 }),
  version: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  size: Type.Optional(Type.Integer({ minimum: 0 })),
  sha256: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$' })),
  released_at: Type.Optional(Timestamp),
  release_notes_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
  /** The served release's notes, plain text as the operator wrote them. */
  notes: Type.Optional(Type.String({ maxLength: 10_000 })),
  /** The oldest system the served release runs on, e.g. "Android 8.0". */
  min_os: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  /** The language `notes` are in, asked with `lang` (docs/public-api.md#languages). */
  notes_lang: Type.Optional(ContentLanguage),
});
export type InstallPackage = Static<typeof InstallPackage>;

export const InstallPackageList = Type.Array(InstallPackage, { maxItems: operatingSystems.length });
export type InstallPackageList = Static<typeof InstallPackageList>;

/** The `lang` query parameter of the calls that answer in the visitor's language: any BCP 47
 * tag, read as languageOf reads it (zh-Hant and zh-HK are zh-TW); other server builds ignore it. */
export const LanguageQuery = Type.Optional(Type.String({ maxLength: 35 }));

export const BulletinListItem = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  content: Type.String(),
  topup: Flag,
  created_at: Timestamp,
  lang: Type.Optional(ContentLanguage),
});
export type BulletinListItem = Static<typeof BulletinListItem>;

export const BulletinPage = Type.Object({
  count: Type.Integer({ minimum: 0 }),
  list: Type.Array(BulletinListItem),
});
export type BulletinPage = Static<typeof BulletinPage>;

export const BulletinDetail = Type.Object({
  Id: Type.Integer(),
  Title: Type.String(),
  Content: Type.String(),
  CreatedAt: Timestamp,
  Lang: Type.Optional(ContentLanguage),
});
export type BulletinDetail = Static<typeof BulletinDetail>;

/** The answer of the optional external edge service that hands out an alternate Android URL. */
export const EdgeAnswer = Type.Object({
  success: Type.Boolean(),
  data: Type.Object({ url: Type.String() }),
});
export type EdgeAnswer = Static<typeof EdgeAnswer>;

export const paging = { defaultPageIndex: 1, defaultPageSize: 15, maxPageSize: 100 } as const;
