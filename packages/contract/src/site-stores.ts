/**
 * What the download screen knows of the site's listing (site-listing.ts): the Android app's store
 * pages and its AppGallery page for HarmonyOS NEXT. The server writes the addresses that are set
 * into <meta name="site-stores">, and no tag when none is. Free of TypeBox: the site imports it.
 */

/** The Android stores, in the order the card lists them when the visitor's phone maker is unknown. */
export const androidStores = ['appgallery', 'xiaomi', 'oppo', 'vivo', 'honor', 'yingyongbao', 'google_play'] as const;
export type AndroidStore = (typeof androidStores)[number];

export const siteStoresMetaName = 'site-stores';

export interface SiteStores {
  /** AppGallery's page of the HarmonyOS NEXT app. */
  harmonyos?: string;
  stores?: Partial<Record<AndroidStore, string>>;
}
