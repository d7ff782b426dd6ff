/**
 * Which version of an announcement a visitor reads (docs/behaviour.md#announcements-in-every-language):
 * the traditional Chinese for zh-TW, the English for en when the operator wrote one, and
 * otherwise the simplified, saying so, so that the site can tell an English reader it is in
 * Chinese rather than pretend.
 */
import type { Language } from '@chat-site/contract';

interface Versions {
  title: string;
  content: string;
  title_tw: string;
  content_tw: string;
  title_en: string;
  content_en: string;
}

export interface LanguageVersion {
  title: string;
  content: string;
  lang: Language;
}

export function languageVersion(row: Versions, language: Language | undefined): LanguageVersion {
  if (language === 'zh-TW' && row.title_tw !== '') {
    return { title: row.title_tw, content: row.content_tw, lang: 'zh-TW' };
  }
  if (language === 'en' && hasEnglish(row)) {
    return { title: row.title_en, content: row.content_en, lang: 'en' };
  }
  return { title: row.title, content: row.content, lang: 'zh-CN' };
}

/** An English version counts once it has a title (its body may be empty, as a title-only
 * announcement's is). */
export const hasEnglish = (row: Pick<Versions, 'title_en'>): boolean => row.title_en.trim() !== '';
