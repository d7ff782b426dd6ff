/**
 * Which language a visitor gets: the rule alone, without the catalogs, so the boot script
 * (src/boot.ts) decides before the first paint exactly as the site's script does (src/lib/i18n.ts)
 * and the server does when it picks the prerendered page (packages/contract/src/language.ts).
 */
import { languageOf, type Language } from '@chat-site/contract';

export { defaultLanguage, languageOf, languages, pickLanguage, type Language } from '@chat-site/contract';

/** `lang` from the real query string (`/?lang=en#/download`) or from the hash's own query
 * (`#/download?lang=en`); the hash wins when both are there. */
export function languageFromUrl(url: URL): Language | null {
  const hashQuery = url.hash.includes('?') ? url.hash.slice(url.hash.indexOf('?') + 1) : '';
  return languageOf(new URLSearchParams(hashQuery).get('lang')) || languageOf(url.searchParams.get('lang'));
}
