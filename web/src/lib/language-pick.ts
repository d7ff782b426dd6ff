/**
 * Which language a visitor gets: the rule alone, without the catalogs, so the boot script
 * (src/boot.ts) decides before the first paint exactly as the site's script does (src/lib/i18n.ts).
 */

/** The languages the site speaks; the first is the default and the only one in the first load. */
export const languages = ['zh-CN', 'zh-TW', 'en'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'zh-CN';

/**
 * The supported language a BCP 47 tag stands for, or null: traditional Chinese (Taiwan, Hong
 * Kong, Macau, or any `zh-Hant`) is zh-TW, any other Chinese zh-CN, any English en.
 */
export function languageOf(tag: string | null | undefined): Language | null {
  const parts = (tag ?? '').trim().toLowerCase().replace(/_/g, '-').split('-');
  if (parts[0] === 'en') return 'en';
  if (parts[0] !== 'zh') return null;
  return parts.slice(1).some((part) => ['hant', 'tw', 'hk', 'mo'].includes(part)) ? 'zh-TW' : 'zh-CN';
}

/** `lang` from the real query string (`/?lang=en#/download`) or from the hash's own query
 * (`#/download?lang=en`); the hash wins when both are there. */
export function languageFromUrl(url: URL): Language | null {
  const hashQuery = url.hash.includes('?') ? url.hash.slice(url.hash.indexOf('?') + 1) : '';
  return languageOf(new URLSearchParams(hashQuery).get('lang')) ?? languageOf(url.searchParams.get('lang'));
}

/** The order the issue sets: `?lang=`, then the visitor's stored choice, then the browser's
 * languages in their order of preference, then the default. */
export function pickLanguage(fromUrl: Language | null, stored: string | null, browser: readonly string[]): Language {
  return fromUrl ?? languageOf(stored) ?? browser.map(languageOf).find((found) => found !== null) ?? defaultLanguage;
}
