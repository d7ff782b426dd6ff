import { defaultLanguage, readChangelog, type ChangelogRelease, type Language } from '@chat-site/contract';
import { apiUrl, getJson, logFailure } from '../../../lib/http';

/** The changelog's call in `language`, `lang` left out in the default one
 * (docs/public-api.md#languages). Named here rather than in lib/api-calls.ts, which ships in every
 * first load; the build reads it from here for the screen's frame (web/build/prerender.ts). */
export const changelogCall = (language: Language) =>
  language === defaultLanguage ? 'common/changelog' : `common/changelog?lang=${language}`;

/** Every release of every platform, newest first (docs/site.md#changelog), the notes in
 * `language` where the release has them so. */
export async function getChangelog(apiAddr: string | null, language: Language): Promise<ChangelogRelease[]> {
  try {
    if (apiAddr === null) throw new Error('no API address');
    return readChangelog(await getJson(apiUrl(apiAddr, changelogCall(language))));
  } catch (error) {
    logFailure('changelog', error);
    throw error;
  }
}
