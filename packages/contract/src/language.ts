/**
 * Which language a visitor gets, by one rule for the server (which picks the prerendered page it
 * sends, server/src/page/routes.ts), the boot script (web/src/boot.ts, before the first paint)
 * and the site's script (web/src/lib/i18n.ts). docs/reach.md#languages.
 */

/** The languages the site speaks; the first is the default. */
export const languages = ['zh-CN', 'zh-TW', 'en'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'zh-CN';

/** The cookie that carries the visitor's choice to the server, so the next page comes
 * prerendered in it. The site's script writes it with languageCookieAttributes. */
export const languageCookie = 'lang';
export const languageCookieAttributes = 'Path=/; Max-Age=31536000; SameSite=Lax';

/**
 * The supported language a BCP 47 tag stands for, or null: traditional Chinese (Taiwan, Hong
 * Kong, Macau, or any `zh-Hant`) is zh-TW, any other Chinese zh-CN, any English en.
 */
export function languageOf(tag: string | null | undefined): Language | null {
  const parts = (tag || '').trim().toLowerCase().replace(/_/g, '-').split('-');
  if (parts[0] === 'en') return 'en';
  if (parts[0] !== 'zh') return null;
  return parts.slice(1).some((part) => ['hant', 'tw', 'hk', 'mo'].includes(part)) ? 'zh-TW' : 'zh-CN';
}

/** The order of docs/reach.md#languages: `?lang=`, then the visitor's stored choice, then the
 * browser's languages in their order of preference, then the default. */
export function pickLanguage(fromUrl: Language | null, stored: string | null, browser: readonly string[]): Language {
  // `||`, not `??`: the values are non-empty names or null, and the boot script that runs this is
  // compiled for engines without `??`, where `||` stays as short as it is written
  // (docs/site.md#the-oldest-browsers-served).
  return fromUrl || languageOf(stored) || browser.map(languageOf).find((found) => found !== null) || defaultLanguage;
}

/**
 * The tags of an Accept-Language header, most preferred first (as `navigator.languages` lists
 * them): by q-value, equal ones in the header's order; those with q=0 (not acceptable) and `*`
 * are left out, and a malformed q counts as 1, as a browser would not send one.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  const ranges = (header ?? '').split(',').flatMap((part, index) => {
    const [tag = '', ...params] = part.split(';').map((piece) => piece.trim());
    if (tag === '' || tag === '*') return [];
    const q = params.find((param) => /^q\s*=/i.test(param));
    const value = q === undefined ? 1 : Number(q.slice(q.indexOf('=') + 1).trim());
    const quality = Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 1;
    return quality > 0 ? [{ tag, quality, index }] : [];
  });
  return ranges.sort((a, b) => b.quality - a.quality || a.index - b.index).map((range) => range.tag);
}

/** The value of the language cookie in a Cookie header, as written (languageOf reads it). */
export function cookieLanguage(header: string | undefined): string | null {
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === languageCookie) return pair.slice(at + 1).trim();
  }
  return null;
}

/** The file the build writes the page in `language` to, under the site's build folder: the
 * default's is index.html (docs/architecture.md#how-a-page-load-flows). */
export function pageFileName(language: Language): string {
  return language === defaultLanguage ? 'index.html' : `index.${language}.html`;
}
