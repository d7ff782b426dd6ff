const platformNames: Record<string, string> = { android: 'Android', ios: 'iOS', windows: 'Windows', mac: 'Mac' };

/** The words feeds and share pages carry, in the site's language (simplified Chinese). */
export const reachText = {
  language: 'zh-CN',
  ogLocale: 'zh_CN',
  feedTitle: (product: string) => `${product} 平台公告`,
  feedDescription: (product: string) => `${product} 官方发布的平台公告`,
  changelogTitle: (product: string) => `${product} 更新日志`,
  releaseTitle: (os: string, version: string) => `${platformNames[os] ?? os} ${version}`,
  continueReading: '阅读全文',
  publishedOn: (date: string) => `发布日期：${date}`,
  notFoundTitle: '未找到该公告',
  notFoundText: '这条公告不存在或已被删除。',
  home: '返回首页',
  pictureAlt: (product: string, title: string) => `${product} 公告：${title}`,
  sitePictureAlt: (product: string) => `${product} 标志与名称`,
  /** The landing page's tagline (web/src/config/messages.zh-CN.ts, hero.tagline). */
  siteLine: '让世界更近，让沟通更有价值',
} as const;
