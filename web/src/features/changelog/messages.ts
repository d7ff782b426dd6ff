import { useLanguage, type Language } from '../../lib/i18n';

// The screen's own words ship in its chunk, in the three languages, rather than in the catalogs,
// which every first load fetches (docs/performance.md#the-first-load-budget). Only the link's
// name (nav.changelog), shown in the footer and on the download screen, is in the catalogs.
const messages = {
  'zh-CN': {
    subtitle: '各平台的历史版本与更新内容',
    empty: '暂无更新记录',
    error: '获取更新日志失败',
    force: '强制更新',
    noNotes: '暂无更新说明',
    feed: '订阅更新日志（Atom）',
    releases: '{count} 个版本',
  },
  'zh-TW': {
    subtitle: '各平台的歷史版本與更新內容',
    empty: '暫無更新記錄',
    error: '取得更新日誌失敗',
    force: '強制更新',
    noNotes: '暫無更新說明',
    feed: '訂閱更新日誌（Atom）',
    releases: '{count} 個版本',
  },
  en: {
    subtitle: "Every platform's releases and what changed in them",
    empty: 'No releases yet',
    error: 'Could not load the changelog',
    force: 'Required update',
    noNotes: 'No release notes',
    feed: 'Subscribe to the changelog (Atom)',
    releases: '{count} releases',
  },
} satisfies Record<Language, Record<string, string>>;

export type ChangelogText = (typeof messages)['zh-CN'];

/** The screen's words in the active language; re-renders when it changes. */
export function useChangelogText(): ChangelogText {
  return messages[useLanguage()];
}
