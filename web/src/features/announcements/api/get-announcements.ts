import { readBulletinList, WrongShapeError, type Bulletin, type Language } from '@chat-site/contract';
import { apiCalls, inLanguage } from '../../../lib/api-calls';
import { apiUrl, getJson, logFailure } from '../../../lib/http';
import { listOf, withLastGood } from '../../../lib/last-good';
import { isSavedBulletin } from './saved-bulletin';

export class AnnouncementListError extends Error {
  constructor(readonly kind: 'shape' | 'fetch') {
    super(kind === 'shape' ? 'announcement list has the wrong shape' : 'announcement list call failed');
  }
}

/** The announcements, pinned first as the server orders them. Logs, then rethrows a failure as
 * the kind docs/public-api.md#errors tells apart (wrong shape or failed call). With no answer from
 * any address, the list saved on an earlier visit stands in (isStale tells). */
export async function getAnnouncements(apiAddr: string | null, language: Language): Promise<Bulletin[]> {
  try {
    return await withLastGood(
      'announcements',
      async () => {
        if (apiAddr === null) throw new Error('no API address');
        return readBulletinList(await getJson(apiUrl(apiAddr, inLanguage(apiCalls.announcements, language))));
      },
      listOf(isSavedBulletin),
    );
  } catch (error) {
    logFailure('announcement list', error);
    throw new AnnouncementListError(error instanceof WrongShapeError ? 'shape' : 'fetch');
  }
}
