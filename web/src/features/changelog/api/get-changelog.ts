import { readChangelog, type ChangelogRelease } from '@chat-site/contract';
import { apiUrl, getJson, logFailure } from '../../../lib/http';

/** The changelog's call. Named here rather than in lib/api-calls.ts, which ships in every first
 * load; the build reads it from here for the screen's frame (web/build/prerender.ts). */
export const changelogCall = 'common/changelog';

/** Every release of every platform, newest first (docs/site.md#changelog). */
export async function getChangelog(apiAddr: string | null): Promise<ChangelogRelease[]> {
  try {
    if (apiAddr === null) throw new Error('no API address');
    return readChangelog(await getJson(apiUrl(apiAddr, changelogCall)));
  } catch (error) {
    logFailure('changelog', error);
    throw error;
  }
}
