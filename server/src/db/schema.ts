import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Times are stored as ISO-8601 UTC strings: they sort as text in both dialects. */
export interface BulletinTable {
  id: Generated<number>;
  title: string;
  content: string;
  pinned: number;
  created_at: string;
  updated_at: string;
}

export interface InstallPackageTable {
  os: string;
  download_url: string;
  version: string | null;
  size: number | null;
  sha256: string | null;
  released_at: string | null;
  release_notes_url: string | null;
  updated_at: string;
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
  created_at: string;
  /** 'admin-token' or 'cli'; null for files stored before this was recorded. */
  uploaded_by: string | null;
}

/** Downloads through the stable /dl links: one row per day ("YYYY-MM-DD" in TIME_ZONE) and OS. */
export interface DownloadCountTable {
  day: string;
  os: string;
  downloads: number;
}

export interface Database {
  bulletins: BulletinTable;
  install_packages: InstallPackageTable;
  settings: SettingTable;
  stored_files: StoredFileTable;
  download_counts: DownloadCountTable;
}

export type BulletinRow = Selectable<BulletinTable>;
export type NewBulletin = Insertable<BulletinTable>;
export type BulletinUpdate = Updateable<BulletinTable>;
export type InstallPackageRow = Selectable<InstallPackageTable>;
export type StoredFileRow = Selectable<StoredFileTable>;
