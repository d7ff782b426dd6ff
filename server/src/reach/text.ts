import type { Language } from '@chat-site/contract';

const platformNames: Record<string, string> = { android: 'Android', ios: 'iOS', windows: 'Windows', mac: 'Mac' };

/** The words feeds and share pages carry, in each language the site speaks
 * (docs/reach.md#languages-of-share-pages-and-feeds). */
export interface ReachText {
  language: Language;
  ogLocale: string;
  feedTitle(product: string): string;
  feedDescription(product: string): string;
  changelogTitle(product: string): string;
  releaseTitle(os: string, version: string): string;
  continueReading: string;
  publishedOn(date: string): string;
  notFoundTitle: string;
  notFoundText: string;
  home: string;
  pictureAlt(product: string, title: string): string;
  sitePictureAlt(product: string): string;
  /** The landing page's tagline (web/src/config/messages.*.ts, hero.tagline). */
  siteLine: string;
}

const releaseTitle = (os: string, version: string) => `${platformNames[os] ?? os} ${version}`;

export const reachTexts: Record<Language, ReachText> = {
  'zh-CN': {
    language: 'zh-CN',
    ogLocale: 'zh_CN',
    feedTitle: (product) => `${product} 平台公告`,
    feedDescription: (product) => `${product} 官方发布的平台公告`,
    changelogTitle: (product) => `${product} 更新日志`,
    releaseTitle,
    continueReading: '阅读全文',
    publishedOn: (date) => `发布日期：${date}`,
    notFoundTitle: '未找到该公告',
    notFoundText: '这条公告不存在或已被删除。',
    home: '返回首页',
    pictureAlt: (product, title) => `${product} 公告：${title}`,
    sitePictureAlt: (product) => `${product} 标志与名称`,
    siteLine: '让世界更近，让沟通更有价值',
  },
  'zh-TW': {
    language: 'zh-TW',
    ogLocale: 'zh_TW',
    feedTitle: (product) => `${product} 平台公告`,
    feedDescription: (product) => `${product} 官方發布的平台公告`,
    changelogTitle: (product) => `${product} 更新日誌`,
    releaseTitle,
    continueReading: '閱讀全文',
    publishedOn: (date) => `發布日期：${date}`,
    notFoundTitle: '找不到這則公告',
    notFoundText: '這則公告不存在或已被刪除。',
    home: '返回首頁',
    pictureAlt: (product, title) => `${product} 公告：${title}`,
    sitePictureAlt: (product) => `${product} 標誌與名稱`,
    siteLine: '讓世界更近，讓溝通更有價值',
  },
  en: {
    language: 'en',
    ogLocale: 'en_US',
    feedTitle: (product) => `${product} announcements`,
    feedDescription: (product) => `Official announcements from ${product}`,
    changelogTitle: (product) => `${product} changelog`,
    releaseTitle,
    continueReading: 'Read more',
    publishedOn: (date) => `Published ${date}`,
    notFoundTitle: 'Announcement not found',
    notFoundText: 'This announcement does not exist or has been deleted.',
    home: 'Back to home',
    pictureAlt: (product, title) => `${product} announcement: ${title}`,
    sitePictureAlt: (product) => `${product} logo and name`,
    siteLine: 'Bringing the world closer, making every conversation count',
  },
};

/** The default language's words, where a page or feed has no other. */
export const reachText = reachTexts['zh-CN'];
