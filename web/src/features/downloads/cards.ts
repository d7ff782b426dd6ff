/**
 * What the download screen offers, as data: which cards, where each button goes, what facts
 * each shows, in which order. Free of React, so src/early-download.ts draws the same cards
 * from the early answers that DownloadSection renders once the site's script runs.
 */
import {
  formatDate,
  type AndroidStore,
  type InstallPackageEntry,
  type Language,
  type SiteStores,
} from '@chat-site/contract';
import type { DownloadKind } from '@chat-site/contract/in-app';
import { siteConfig } from '../../config/site-config';
import { storesFor } from '../../lib/phone-maker';
import type { Platform } from '../../lib/platform';

export interface CardLink {
  href: string | undefined;
  /** Opens in a new tab (store pages, the edge service's URL) rather than downloading here. */
  newTab: boolean;
}

export type DetailField =
  'version' | 'size' | 'sha256' | 'releasedAt' | 'releaseNotesUrl' | 'notes' | 'notesLanguage' | 'minOs';

export interface Card {
  platform: Platform;
  link: CardLink;
  /** The facts to show beside the button; only those that describe what the button fetches. */
  details?: Pick<InstallPackageEntry, DetailField> | undefined;
  /** Ranked for this visitor: their own platform first, highlighted and labelled, the others
   * quieter; undefined when the platform is unknown and every card looks the same. */
  standing?: 'recommended' | 'other' | undefined;
  /** The Android app's store pages, the visitor's phone maker's first, beside the direct APK. */
  stores?: StoreLink[] | undefined;
}

export interface StoreLink {
  store: AndroidStore;
  href: string;
}

/** The operator's store pages (config/site-stores.ts) and the user agent that orders them. */
export interface StorePages {
  pages: SiteStores;
  userAgent: string;
}

export interface DownloadLinks {
  loading: boolean;
  packages: InstallPackageEntry[];
  edgeUrl: string | undefined;
}

export const appStoreUrl = (appId: string) => `https://apps.apple.com/app/id${appId}`;

function storeLinks({ pages, userAgent }: StorePages): StoreLink[] | undefined {
  const set = pages.stores ?? {};
  const found = storesFor(userAgent).flatMap((store) => {
    const href = set[store];
    return href === undefined ? [] : [{ store, href }];
  });
  return found.length > 0 ? found : undefined;
}

/** HarmonyOS NEXT installs from AppGallery only: its card is there when the operator has given
 * the app's page there (docs/site.md#harmonyos-next). */
function harmonyCard({ pages }: StorePages): Card[] {
  return pages.harmonyos === undefined
    ? []
    : [{ platform: 'harmonyos', link: { href: pages.harmonyos, newTab: true } }];
}

/** The host rule (docs/site.md#the-download-screen): the primary domain offers the fixed
 * APK only; other hosts offer every platform, with Android preferring the edge service's URL when
 * it answered. The Android card lists the store pages beside its APK, and HarmonyOS NEXT gets its
 * AppGallery card on every host. A card shows the facts of the package entry that describes what
 * its button fetches. */
export function cards(
  primary: boolean,
  links: DownloadLinks,
  stores: StorePages = { pages: {}, userAgent: '' },
): Card[] {
  const entry = (os: Platform) => links.packages.find((found) => found.os === os);
  const link = (os: Platform): CardLink => ({ href: entry(os)?.downloadUrl, newTab: false });
  if (primary) {
    const android = entry('android');
    const details = android?.downloadUrl === siteConfig.androidApkUrl ? android : undefined;
    const link = { href: siteConfig.androidApkUrl, newTab: false };
    return [{ platform: 'android', link, details, stores: storeLinks(stores) }, ...harmonyCard(stores)];
  }
  const ios = entry('ios');
  return [
    {
      platform: 'android',
      link: links.edgeUrl !== undefined ? { href: links.edgeUrl, newTab: true } : link('android'),
      details: entry('android'),
      stores: storeLinks(stores),
    },
    ...harmonyCard(stores),
    // The App Store installs iOS: its size and hash are not the visitor's to check.
    {
      platform: 'ios',
      link: { href: appStoreUrl(siteConfig.iosAppStoreId), newTab: true },
      details: ios && {
        version: ios.version,
        releasedAt: ios.releasedAt,
        releaseNotesUrl: ios.releaseNotesUrl,
        notes: ios.notes,
        ...(ios.notesLanguage !== undefined && { notesLanguage: ios.notesLanguage }),
        minOs: ios.minOs,
      },
    },
    { platform: 'windows', link: link('windows'), details: entry('windows') },
    { platform: 'mac', link: link('mac'), details: entry('mac') },
  ];
}

/** What a card's button fetches, for the in-app browsers' guide (docs/site.md#in-app-browsers):
 * the iOS card opens the App Store, every other one fetches a file. */
export const downloadKindOf = (platform: Platform): DownloadKind => (platform === 'ios' ? 'app-store' : 'package');

/** The visitor's platform first; the others keep their order. */
export function ranked(list: Card[], preferred: Platform | undefined): Card[] {
  const mine = list.find((card) => card.platform === preferred);
  if (mine === undefined) return list;
  return [
    { ...mine, standing: 'recommended' },
    ...list.filter((card) => card !== mine).map((card) => ({ ...card, standing: 'other' as const })),
  ];
}

/** What the visitor can check before installing. Sizes in binary units, as file managers show. */
export function formatSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** A card's facts as shown: each present only when the entry has it and it is what it claims
 * to be (other servers' fields are not checked on the wire). */
export interface PackageFacts {
  version?: string;
  size?: string;
  released?: string;
  sha256?: string;
  notesUrl?: string;
  /** The release's notes, shown clamped with a link to the changelog. */
  notes?: string;
  /** Their language when the server said; the English site says when they are not English. */
  notesLanguage?: Language;
  /** Replaces the card's fixed minimum system (download.android and the like) when given. */
  minOs?: string;
}

/** Where the early cards' samples keep the framing of a release's own minimum system
 * (src/app/prerender.tsx renders it, src/early-download.ts fills it in). */
export const minOsFrameKey = 'frame:min-os';

/**
 * The 64 hex digits of a SHA-256 as the card shows them: two lines of 32, each a box of its own.
 * As one run of text the hash was the largest text on a phone's first screen, so the download
 * screen's largest paint waited for the API answers, two round trips after the screen's own
 * heading and introduction (docs/performance.md#the-largest-paint-of-each-screen).
 */
export const hashLines = (sha256: string): [string, string] => [sha256.slice(0, 32), sha256.slice(32)];

export function packageFacts(entry: Pick<InstallPackageEntry, DetailField>): PackageFacts {
  const facts: PackageFacts = {};
  if (entry.version !== undefined) facts.version = entry.version;
  if (entry.size !== undefined) facts.size = formatSize(entry.size);
  const released = entry.releasedAt === undefined ? '' : formatDate(entry.releasedAt);
  if (released !== '') facts.released = released;
  if (entry.sha256 !== undefined && /^[0-9a-f]{64}$/.test(entry.sha256)) facts.sha256 = entry.sha256;
  if (entry.releaseNotesUrl !== undefined && /^https?:\/\//i.test(entry.releaseNotesUrl)) {
    facts.notesUrl = entry.releaseNotesUrl;
  }
  if (entry.notes !== undefined) facts.notes = entry.notes;
  if (entry.notesLanguage !== undefined) facts.notesLanguage = entry.notesLanguage;
  if (entry.minOs !== undefined) facts.minOs = entry.minOs;
  return facts;
}
