import { androidStoreNamesZhCn, type AndroidStore } from '@chat-site/contract';
import { currentLanguage, useLanguage, type Language } from '../../lib/i18n';

// Words only the download screen shows, and only when the operator has set store pages or a
// visitor comes with HarmonyOS NEXT: in the screen's chunk, in the three languages, rather than
// in the catalogs every first load fetches (docs/performance.md#the-first-load-budget).
const messages = {
  'zh-CN': {
    stores: '应用商店',
    harmonyos: 'HarmonyOS NEXT',
    harmonyosStore: '在华为应用市场安装',
    harmonyosMissing: '{product} 暂未上架 HarmonyOS NEXT 版。可以先使用网页版，在浏览器里收发消息。',
    web: '打开网页版',
  },
  'zh-TW': {
    stores: '應用商店',
    harmonyos: 'HarmonyOS NEXT',
    harmonyosStore: '在華為應用市場安裝',
    harmonyosMissing: '{product} 暫未上架 HarmonyOS NEXT 版。可以先使用網頁版，在瀏覽器裡收發訊息。',
    web: '開啟網頁版',
  },
  en: {
    stores: 'App stores',
    harmonyos: 'HarmonyOS NEXT',
    harmonyosStore: 'Install from AppGallery',
    harmonyosMissing:
      '{product} is not yet available for HarmonyOS NEXT. Meanwhile, the web version works in your browser.',
    web: 'Open the web version',
  },
} satisfies Record<Language, Record<string, string>>;

/** The stores by the names their users know them by; no logos, which would be their marks. */
const storeNames: Record<Language, Record<AndroidStore, string>> = {
  'zh-CN': androidStoreNamesZhCn,
  'zh-TW': {
    appgallery: '華為應用市場',
    xiaomi: '小米應用商店',
    oppo: 'OPPO 軟體商店',
    vivo: 'vivo 應用商店',
    honor: '榮耀應用市場',
    yingyongbao: '應用寶',
    google_play: 'Google Play',
  },
  en: {
    appgallery: 'Huawei AppGallery',
    xiaomi: 'Xiaomi GetApps',
    oppo: 'OPPO App Market',
    vivo: 'vivo App Store',
    honor: 'HONOR App Market',
    yingyongbao: 'Tencent Myapp (应用宝)',
    google_play: 'Google Play',
  },
};

export type DownloadText = (typeof messages)['zh-CN'];

/** The screen's own words in the active language; re-renders when it changes. */
export function useDownloadText(): DownloadText {
  return messages[useLanguage()];
}

export const storeName = (store: AndroidStore): string => storeNames[currentLanguage()][store];
