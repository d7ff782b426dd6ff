import { readBulletinList, type Bulletin } from '@chat-site/contract';
import { apiCalls } from '../../../lib/api-calls';
import { apiUrl, getJson } from '../../../lib/http';

/** The pinned announcements (topup 1) for the strip under the hero. */
export async function getPinnedAnnouncements(apiAddr: string): Promise<Bulletin[]> {
  const body = await getJson(apiUrl(apiAddr, apiCalls.announcements));
  return readBulletinList(body).filter((bulletin) => bulletin.pinned);
}
