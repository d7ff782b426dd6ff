import { acceptedLanguages, cookieLanguage, languageOf, pickLanguage, type Language } from '@chat-site/contract';
import type { FastifyRequest } from 'fastify';

/** The language to send the page in, by the rule the site's script follows too
 * (packages/contract/src/language.ts): `?lang=` (the first, as URLSearchParams reads it), then the
 * cookie the site writes when the visitor chooses, then Accept-Language by its q-values. */
export function pageLanguage(request: FastifyRequest): Language {
  const lang = (request.query as Record<string, unknown> | undefined)?.lang;
  const fromUrl = languageOf(Array.isArray(lang) ? String(lang[0]) : typeof lang === 'string' ? lang : null);
  return pickLanguage(
    fromUrl,
    cookieLanguage(request.headers.cookie),
    acceptedLanguages(request.headers['accept-language']),
  );
}
