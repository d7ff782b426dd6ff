/** The console's releases: one card per platform, publishing and rolling back, and each
 * platform's lowest supported version (docs/behaviour.md#releases). */
import { Type, type Static } from 'typebox';
import { InstallPackage, Timestamp } from '../canonical.js';
import { HttpUrlString, Nullable } from './common.js';

export const ReleaseOs = InstallPackage.properties.OS;

/**
 * What an installed app's updater fetches, beside the file people download
 * (docs/releases.md#update-payloads): electron-updater's package (the macOS `.zip`, the Windows
 * NSIS `.exe`), its `.blockmap`, and the Tauri updater's package (`.app.tar.gz` on macOS;
 * `.nsis.zip`, `.msi.zip`, or the installer itself on Windows). macOS and Windows only.
 */
export const PayloadRole = Type.Union([
  Type.Literal('electron'),
  Type.Literal('electron_blockmap'),
  Type.Literal('tauri'),
]);
export type PayloadRole = Static<typeof PayloadRole>;

/** The CPU a payload is built for; none: every architecture of its platform (a universal build). */
export const PayloadArch = Type.Union([Type.Literal('x86_64'), Type.Literal('aarch64')]);
export type PayloadArch = Static<typeof PayloadArch>;

/** One payload of a release being published: a hosted file or an outside address. */
export const PayloadBody = Type.Object(
  {
    role: PayloadRole,
    arch: Type.Optional(PayloadArch),
    file_key: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    /** The Tauri payload's signature, checked as the release's own (docs/releases.md#tauri-signatures). */
    signature: Type.Optional(Type.String({ maxLength: 4096 })),
  },
  { additionalProperties: false },
);
export type PayloadBody = Static<typeof PayloadBody>;

export const ReleasePayload = Type.Object({
  role: PayloadRole,
  arch: Nullable(PayloadArch),
  file_key: Nullable(Type.String()),
  /** As stored: file/preview/<key> or an http(s) URL. */
  download_url: Type.String(),
  size: Nullable(Type.Integer()),
  sha256: Nullable(Type.String()),
  sha512: Nullable(Type.String()),
  signature: Nullable(Type.String()),
});
export type ReleasePayload = Static<typeof ReleasePayload>;

/** The notes in the site's other languages (docs/behaviour.md#release-notes-in-every-language):
 * the traditional made at publishing unless the operator wrote it, and English by hand. Optional:
 * a server before them answers without. */
export const NoteLanguages = Type.Object({
  notes_tw: Type.Optional(Nullable(Type.String())),
  /** true: the operator wrote the traditional notes; false: the converter made them. */
  notes_tw_by_hand: Type.Optional(Type.Boolean()),
  notes_en: Type.Optional(Nullable(Type.String())),
});

export const Release = Type.Object({
  id: Type.Integer(),
  os: ReleaseOs,
  version: Nullable(Type.String()),
  notes: Nullable(Type.String()),
  ...NoteLanguages.properties,
  release_notes_url: Nullable(Type.String()),
  released_at: Nullable(Timestamp),
  size: Nullable(Type.Integer()),
  sha256: Nullable(Type.String()),
  /** The hosted file's key, or null for an outside URL. */
  file_key: Nullable(Type.String()),
  /** As stored: file/preview/<key>, an http(s) URL or a relative path. */
  download_url: Type.String(),
  min_os: Nullable(Type.String()),
  /** Clients older than it must update (docs/releases.md#update-checks). */
  is_force: Type.Boolean(),
  /** The Tauri updater's signature of the package. */
  signature: Nullable(Type.String()),
  /** The update payloads published with it; empty: updaters fetch the download itself. */
  payloads: Type.Array(ReleasePayload),
  created_by: Type.String(),
  created_at: Timestamp,
  current: Type.Boolean(),
});
export type Release = Static<typeof Release>;

export const ServedFrom = Type.Union([Type.Literal('hosted'), Type.Literal('cdn'), Type.Literal('outside')]);

/** What the site offers now for a platform, and from where. */
export const CurrentRelease = Type.Object({
  release_id: Nullable(Type.Integer()),
  version: Nullable(Type.String()),
  size: Nullable(Type.Integer()),
  sha256: Nullable(Type.String()),
  released_at: Nullable(Timestamp),
  release_notes_url: Nullable(Type.String()),
  notes: Nullable(Type.String()),
  min_os: Nullable(Type.String()),
  /** The entry as stored. */
  download_url: Type.String(),
  /** Where the site's button and /dl/{os} send a visitor for this entry. */
  served_url: Type.String(),
  served_from: ServedFrom,
});
export type CurrentRelease = Static<typeof CurrentRelease>;

/** A platform's staged roll-out (docs/releases.md#staged-roll-out). */
export const Rollout = Type.Object({
  release_id: Type.Integer(),
  version: Nullable(Type.String()),
  previous_release_id: Type.Integer(),
  previous_version: Nullable(Type.String()),
  /** The share of installs offered release_id, 1 to 100. */
  percentage: Type.Integer({ minimum: 1, maximum: 100 }),
  /** Halted: every install not yet on it is offered the previous release, and so is the site. */
  halted: Type.Boolean(),
  updated_at: Timestamp,
});
export type Rollout = Static<typeof Rollout>;

export const RolloutPercentage = Type.Integer({ minimum: 1, maximum: 100 });

export const RolloutBody = Type.Object({ percentage: RolloutPercentage }, { additionalProperties: false });
export type RolloutBody = Static<typeof RolloutBody>;

export const ReleaseCard = Type.Object({
  os: ReleaseOs,
  current: Nullable(CurrentRelease),
  history: Type.Array(Release),
  /** Clients below it are told to update, forced (docs/releases.md#update-checks). */
  min_version: Nullable(Type.String()),
  /** Null when every install is offered the current release. */
  rollout: Nullable(Rollout),
});
export type ReleaseCard = Static<typeof ReleaseCard>;

export const ReleaseCards = Type.Object({ platforms: Type.Array(ReleaseCard) });
export type ReleaseCards = Static<typeof ReleaseCards>;

export const ReleaseBody = Type.Object(
  {
    os: ReleaseOs,
    file_key: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    version: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    notes: Type.Optional(Type.String({ maxLength: 10_000 })),
    /** The operator's own traditional notes; left out or blank: made from `notes`. */
    notes_tw: Type.Optional(Type.String({ maxLength: 10_000 })),
    /** English notes; left out or blank: none (the English site shows the Chinese, saying so). */
    notes_en: Type.Optional(Type.String({ maxLength: 10_000 })),
    release_notes_url: Type.Optional(HttpUrlString),
    released_at: Type.Optional(Timestamp),
    min_os: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    size: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    sha256: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$' })),
    force_update: Type.Optional(Type.Boolean()),
    signature: Type.Optional(Type.String({ maxLength: 4096 })),
    /** Below 100: offered to that share of installs first (docs/releases.md#staged-roll-out). */
    rollout_percentage: Type.Optional(RolloutPercentage),
    /** At most one per role and architecture (docs/releases.md#update-payloads). */
    payloads: Type.Optional(Type.Array(PayloadBody, { maxItems: 8 })),
  },
  { additionalProperties: false },
);
export type ReleaseBody = Static<typeof ReleaseBody>;

export const MinVersionParams = Type.Object({ os: ReleaseOs });

export const MinVersionBody = Type.Object(
  { min_version: Nullable(Type.String({ minLength: 1, maxLength: 64 })) },
  { additionalProperties: false },
);
export type MinVersionBody = Static<typeof MinVersionBody>;

export const MinVersions = Type.Record(Type.String(), Type.String(), {
  description: 'The lowest supported version of each platform that has one',
});
export type MinVersions = Static<typeof MinVersions>;
