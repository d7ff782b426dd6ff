import { readBulletinList, type Bulletin, type Language } from '@chat-site/contract';
import { apiCalls, inLanguage } from '../../../lib/api-calls';
import { apiUrl, getJson } from '../../../lib/http';

/** The pinned announcements (topup 1) for the strip under the hero. */
export async function getPinnedAnnouncements(apiAddr: string, language: Language): Promise<Bulletin[]> {
  const body = await getJson(apiUrl(apiAddr, inLanguage(apiCalls.announcements, language)));
  return readBulletinList(body).filter((bulletin) => bulletin.pinned);
}
