import { defaultLanguage, type Language } from '@chat-site/contract';
import { apiCalls } from '../api-calls';

/** The package list's call in `language` (docs/public-api.md#languages), for the notes in it
 * where the release has them; `lang` is left out in the default one, as the announcement calls
 * leave it. Named here, not in lib/api-calls.ts, which every first load carries, nor beside the
 * call, whose imports the build cannot load: the build writes it into the download screens'
 * frames (web/build/prerender.ts). */
export const packagesCall = (language: Language) =>
  language === defaultLanguage ? apiCalls.installPackages : `${apiCalls.installPackages}?lang=${language}`;
