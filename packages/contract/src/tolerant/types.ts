/**
 * What the site works with once a server answer has been read. Every tolerated variant
 * (docs/public-api.md#reading-other-server-builds) collapses into these, so screens never see
 * which server build answered.
 */
import type { Language } from '../language.js';

export interface Bulletin {
  id: string;
  title: string;
  content: string;
  pinned: boolean;
  /** "YYYY-MM-DD HH:MM:SS" wall clock in the server's time zone. */
  createdAt: string;
  /** The language of its title and body when the server says (docs/public-api.md#languages);
   * null when it does not (then it is Chinese as written). Absent from copies saved before. */
  language?: Language | null;
}

export interface InstallPackageEntry {
  /** Lower-cased, since servers disagree on "iOS" versus "ios". */
  os: string;
  downloadUrl: string;
  version?: string;
  size?: number;
  sha256?: string;
  releasedAt?: string;
  releaseNotesUrl?: string;
  /** The served release's notes, plain text. */
  notes?: string;
  /** The language of the notes when the server says (asked with `lang`,
   * docs/public-api.md#languages); absent: Chinese as written. */
  notesLanguage?: Language;
  /** The oldest system it runs on, as the operator wrote it ("Android 8.0"). */
  minOs?: string;
}

/** One release of the changelog. */
export interface ChangelogRelease {
  /** Lower-cased. */
  os: string;
  version: string;
  /** The release forces the update. */
  force: boolean;
  /** As the operator wrote them; "" when none. */
  notes: string;
  /** "" when the answer gave none. */
  downloadUrl: string;
  /** "YYYY-MM-DD HH:MM:SS", or "" when unreadable. */
  releasedAt: string;
  /** Bytes, when known. */
  size?: number;
  /** The language of the notes when the server says; absent: Chinese as written. */
  language?: Language;
}

export interface CdnSettings {
  useCdn: boolean;
  bucketUrl: string;
}

export interface RegionAddrs {
  apiAddrs: string[];
  allocatorAddrs: string[];
}

/** The HTTP call went through but the envelope says it failed, so the answer must not be shown. */
export class ApiFailure extends Error {
  override name = 'ApiFailure';
}

/** A list answer that is none of the accepted shapes: the "data format error" of
 * docs/public-api.md#errors. */
export class WrongShapeError extends Error {
  override name = 'WrongShapeError';
}
