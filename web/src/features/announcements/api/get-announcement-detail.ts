import { readBulletinDetail, type Bulletin } from '@chat-site/contract';
import { apiUrl, getJson, HttpError, logFailure } from '../../../lib/http';

/** One announcement, or null when the server has none with that id. Other failures are logged
 * and rethrown. */
export async function getAnnouncementDetail(apiAddr: string | null, id: string): Promise<Bulletin | null> {
  try {
    if (apiAddr === null) throw new Error('no API address');
    const body = await getJson(apiUrl(apiAddr, `bulletin/detail?id=${encodeURIComponent(id)}`));
    return readBulletinDetail(body) ?? null;
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return null;
    logFailure('announcement detail', error);
    throw error;
  }
}
