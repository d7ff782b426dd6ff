import { languageCookie, languageCookieAttributes } from '@chat-site/contract';
import { storageKeys, writeString } from './storage';

/** Keeps the visitor's choice of language for the next visit: in storage for the site's script,
 * and in a cookie for the server, which then sends the page prerendered in it
 * (docs/reach.md#languages). */
export function rememberLanguage(language: string): void {
  writeString(storageKeys.language, language);
  try {
    document.cookie = `${languageCookie}=${encodeURIComponent(language)}; ${languageCookieAttributes}`;
  } catch {
    // Cookies disabled: the server falls back to the browser's languages, the boot script mends.
  }
}
