import { readBulletinDetail, type Bulletin, type Language } from '@chat-site/contract';
import { inLanguage } from '../../../lib/api-calls';
import { apiUrl, getJson, HttpError, logFailure } from '../../../lib/http';
import { withLastGood } from '../../../lib/last-good';
import { isSavedBulletin } from './saved-bulletin';

/** One announcement, or null when the server has none with that id. Other failures are logged
 * and rethrown; with no answer from any address, a copy saved earlier stands in (isStale tells).
 * A "no such announcement" answer is never covered by a saved copy. */
export async function getAnnouncementDetail(
  apiAddr: string | null,
  id: string,
  language: Language,
): Promise<Bulletin | null> {
  try {
    return await withLastGood(
      `announcement:${id}`,
      async () => {
        if (apiAddr === null) throw new Error('no API address');
        const url = apiUrl(apiAddr, inLanguage(`bulletin/detail?id=${encodeURIComponent(id)}`, language));
        const bulletin = readBulletinDetail(await getJson(url));
        if (bulletin === undefined) throw new HttpError(404, url);
        return bulletin;
      },
      isSavedBulletin,
    );
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return null;
    logFailure('announcement detail', error);
    throw error;
  }
}
