import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Times are stored as ISO-8601 UTC strings: they sort as text in both dialects. */
export interface BulletinTable {
  id: Generated<number>;
  title: string;
  content: string;
  pinned: number;
  /** When it is (or will be) public, and the date the site shows; later than now: scheduled. */
  created_at: string;
  updated_at: string;
  /** 'draft' is never public; 'published' is from created_at on. */
  state: Generated<BulletinState>;
  /** Grows with every change: a save names the version it edited (optimistic concurrency). */
  version: Generated<number>;
  /** Deleted: in the trash, restorable for 30 days after this instant, then purged
   * (docs/console.md#trash). */
  deleted_at: string | null;
  /** When the scheduler turns it back into a draft (docs/behaviour.md#announcements-that-stop-by-themselves). */
  unpublish_at: string | null;
  /** When the scheduler unpins it. */
  unpin_at: string | null;
  /** The body's text without markup (lib/html-text.ts), which the console searches. */
  content_text: Generated<string>;
  /** The traditional Chinese (lib/chinese-scripts.ts) and English versions
   * (docs/behaviour.md#announcements-in-every-language); an empty English title and body: none. */
  title_tw: Generated<string>;
  content_tw: Generated<string>;
  /** 1: the operator wrote the traditional version, which no longer follows the simplified. */
  tw_by_hand: Generated<number>;
  title_en: Generated<string>;
  content_en: Generated<string>;
}

export type BulletinState = 'draft' | 'published';

/** One saved state of an announcement: every create, save, publish and restore of a revision
 * adds one (docs/console.md#revisions). */
export interface BulletinRevisionTable {
  id: Generated<number>;
  bulletin_id: number;
  /** The announcement's version this save made. */
  version: number;
  title: string;
  content: string;
  pinned: number;
  state: BulletinState;
  /** The announcement's created_at then: when it is (or was to be) public. */
  publish_at: string;
  action: RevisionAction;
  /** For a restore: the revision whose content was written back. */
  restored_from: number | null;
  /** The signed-in account's name, `admin-token` or `cli`. */
  actor: string;
  at: string;
  /** As in BulletinTable. */
  title_tw: Generated<string>;
  content_tw: Generated<string>;
  tw_by_hand: Generated<number>;
  title_en: Generated<string>;
  content_en: Generated<string>;
}

export type RevisionAction = 'create' | 'update' | 'restore';

export interface InstallPackageTable {
  os: string;
  download_url: string;
  version: string | null;
  size: number | null;
  sha256: string | null;
  released_at: string | null;
  release_notes_url: string | null;
  updated_at: string;
  /** The release this entry serves (releases.id); null for an entry written before releases
   * were kept, or by hand. */
  release_id: number | null;
}

/** Every release published for a platform, the one served now among them
 * (install_packages.release_id). See docs/behaviour.md#releases. */
export interface ReleaseTable {
  id: Generated<number>;
  os: string;
  /** As in a package entry: an http(s) URL, file/preview/<key>, or a relative path. */
  download_url: string;
  /** The hosted file's key when download_url names one. */
  file_key: string | null;
  version: string | null;
  notes: string | null;
  release_notes_url: string | null;
  released_at: string | null;
  size: number | null;
  sha256: string | null;
  /** The oldest system version it installs on, as people write it ("Android 8.0"). */
  min_os: string | null;
  /** 1: clients older than it must update (is_force of the app's check). */
  is_force: Generated<number>;
  /** The Tauri updater's signature of the package (the .sig file's content). */
  signature: string | null;
  /** The notes in traditional Chinese, made from `notes` unless the operator wrote them
   * (notes_tw_by_hand 1), and in English, written by hand; null: none
   * (docs/behaviour.md#release-notes-in-every-language). */
  notes_tw: Generated<string | null>;
  notes_tw_by_hand: Generated<number>;
  notes_en: Generated<string | null>;
  /** An operator's name, `admin-token`, `cli`, `demo` or `migration`. */
  created_by: string;
  created_at: string;
}

/** Small JSON documents the operator sets as a whole: the app config and the region document. */
export interface SettingTable {
  key: string;
  value: string;
  updated_at: string;
}

/** What the server knows of each file it hosts (announcement images, install packages); the
 * bytes live in the file storage (files/storage), under the same key. */
export interface StoredFileTable {
  key: string;
  /** The name it was uploaded under, for downloads; the key holds a cleaned copy. */
  name: string;
  content_type: string;
  size: number;
  sha256: string;
  /** Base64, for the desktop apps' update info; taken with the SHA-256 at intake, and by
   * migration 0008 for files stored before. Null only for a file missing from the storage then. */
  sha512: string | null;
  created_at: string;
  /** 'admin-token' or 'cli'; null for files stored before this was recorded. */
  uploaded_by: string | null;
}

/** A platform's staged roll-out (docs/releases.md#staged-roll-out); no row: every install is
 * offered the current release. */
export interface RolloutTable {
  os: string;
  /** The release rolled out (releases.id). */
  release_id: number;
  /** The release offered outside the share, and to everyone while halted. */
  previous_release_id: number;
  /** 1 to 100: the share of installs offered release_id. */
  percentage: number;
  /** 1 while halted: the package entry then serves previous_release_id. */
  halted: number;
  /** Keys each install's bucket (updates/rollout.ts): a new one for every roll-out. */
  salt: string;
  updated_at: string;
}

/** A file an installed app's updater fetches for a release, beside its download
 * (docs/releases.md#update-payloads). */
export interface ReleasePayloadTable {
  /** In the order published. */
  id: Generated<number>;
  release_id: number;
  /** 'electron', 'electron_blockmap' or 'tauri'. */
  role: string;
  /** 'x86_64' or 'aarch64'; null: every architecture of the platform. */
  arch: string | null;
  /** file/preview/<key> or an http(s) URL. */
  download_url: string;
  file_key: string | null;
  size: number | null;
  sha256: string | null;
  /** Base64, of a hosted file; null for an outside address. */
  sha512: string | null;
  /** The Tauri updater's signature (base64 of the .sig file). */
  signature: string | null;
}

/** Update checks per day ("YYYY-MM-DD" in TIME_ZONE), platform and reported version ('other'
 * for one never published): every check, and the installs that made them (each once a day). */
export interface UpdateCheckCountTable {
  day: string;
  os: string;
  version: string;
  checks: number;
  installs: number;
}

/** Downloads through the stable /dl links: one row per day ("YYYY-MM-DD" in TIME_ZONE) and OS. */
export interface DownloadCountTable {
  day: string;
  os: string;
  downloads: number;
}

/** Per day and app (an InAppBrowser): visits from its built-in browser, guides shown there. */
export interface InAppCountTable {
  day: string;
  app: string;
  visits: number;
  guides: number;
}

/** Who has downloaded what today, as downloads/visitors.ts counts them: a salted hash of the
 * client, never its address; rows of earlier days are deleted (docs/public-api.md#stable-download-links). */
export interface DownloadVisitorTable {
  day: string;
  os: string;
  visitor: string;
}

/** The day's salt for those hashes, shared by every server of the database; deleted with the day. */
export interface DownloadSaltTable {
  day: string;
  salt: string;
}

export type Role = 'admin' | 'editor';

/** Operators of the console. `name` is kept as typed; it is unique without regard to case. */
export interface UserTable {
  id: Generated<number>;
  name: string;
  name_key: string;
  role: Role;
  password_hash: string;
  created_at: string;
  updated_at: string;
}

/** Signed-in console sessions. The cookie holds a random token; only its SHA-256 is kept here. */
export interface SessionTable {
  token_hash: string;
  user_id: number;
  created_at: string;
  last_seen_at: string;
  /** When it ends however active it is. */
  expires_at: string;
  client: string;
  user_agent: string;
}

/** Password checks started within a window (docs/console.md#sign-in-limits), less those that
 * succeeded. `key` is `account <name>`, `client <address>` or `pair <address> <name>`. */
export interface SignInAttemptTable {
  key: string;
  attempts: number;
  /** When the window began: the first attempt after the last window ended. */
  since: string;
}

/** Who changed what and when, with the state before and after (JSON, null where none). */
export interface AuditTable {
  id: Generated<number>;
  at: string;
  actor: string;
  action: string;
  target: string;
  before: string | null;
  after: string | null;
}

export interface Database {
  bulletins: BulletinTable;
  bulletin_revisions: BulletinRevisionTable;
  install_packages: InstallPackageTable;
  releases: ReleaseTable;
  release_payloads: ReleasePayloadTable;
  rollouts: RolloutTable;
  update_check_counts: UpdateCheckCountTable;
  settings: SettingTable;
  stored_files: StoredFileTable;
  download_counts: DownloadCountTable;
  in_app_counts: InAppCountTable;
  download_visitors: DownloadVisitorTable;
  download_salts: DownloadSaltTable;
  users: UserTable;
  sessions: SessionTable;
  audit_log: AuditTable;
  sign_in_attempts: SignInAttemptTable;
}

export type BulletinRow = Selectable<BulletinTable>;
export type NewBulletin = Insertable<BulletinTable>;
export type BulletinUpdate = Updateable<BulletinTable>;
export type BulletinRevisionRow = Selectable<BulletinRevisionTable>;
export type InstallPackageRow = Selectable<InstallPackageTable>;
export type ReleaseRow = Selectable<ReleaseTable>;
export type ReleasePayloadRow = Selectable<ReleasePayloadTable>;
export type RolloutRow = Selectable<RolloutTable>;
export type StoredFileRow = Selectable<StoredFileTable>;
export type UserRow = Selectable<UserTable>;
export type AuditRow = Selectable<AuditTable>;
