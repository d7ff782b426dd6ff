/**
 * What the download screen knows of the site's listing (site-listing.ts): the Android app's store
 * pages and its AppGallery page for HarmonyOS NEXT. The server writes the addresses that are set
 * into <meta name="site-stores">, and no tag when none is. Free of TypeBox: the site imports it.
 */

/** The Android stores, in the order the card lists them when the visitor's phone maker is unknown. */
export const androidStores = ['appgallery', 'xiaomi', 'oppo', 'vivo', 'honor', 'yingyongbao', 'google_play'] as const;
export type AndroidStore = (typeof androidStores)[number];

/** Each store by the name its users in mainland China know it by: the site's simplified Chinese
 * card and the console's listing settings. */
export const androidStoreNamesZhCn: Record<AndroidStore, string> = {
  appgallery: '华为应用市场',
  xiaomi: '小米应用商店',
  oppo: 'OPPO 软件商店',
  vivo: 'vivo 应用商店',
  honor: '荣耀应用市场',
  yingyongbao: '应用宝',
  google_play: 'Google Play',
};

export const siteStoresMetaName = 'site-stores';

export interface SiteStores {
  /** AppGallery's page of the HarmonyOS NEXT app. */
  harmonyos?: string;
  stores?: Partial<Record<AndroidStore, string>>;
}
