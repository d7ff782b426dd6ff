import { readBulletinList, type Bulletin } from '@chat-site/contract';
import { announcementPageSize } from '../../../config/constants';
import { apiUrl, getJson } from '../../../lib/http';

/** The pinned announcements (topup 1) for the strip under the hero. */
export async function getPinnedAnnouncements(apiAddr: string): Promise<Bulletin[]> {
  const body = await getJson(apiUrl(apiAddr, `bulletin/page?page_index=1&page_size=${announcementPageSize}`));
  return readBulletinList(body).filter((bulletin) => bulletin.pinned);
}
