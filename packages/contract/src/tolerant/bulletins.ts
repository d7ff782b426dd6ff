/**
 * Announcements from any server build. The list endpoint of the canonical server sends
 * snake_case and the detail endpoint PascalCase, so both readers accept every spelling.
 */
import { languageOf } from '../language.js';
import { unwrapEnvelope } from './envelope.js';
import { isRecord, listItems, pick, pickText } from './fields.js';
import { readFlag, readId } from './scalars.js';
import { readTimestamp } from './timestamp.js';
import { WrongShapeError, type Bulletin } from './types.js';

/** One announcement, or undefined when it has no id: without one it can be neither linked nor selected. */
function toBulletin(item: unknown, timeZone: string | undefined): Bulletin | undefined {
  if (!isRecord(item)) return undefined;
  const id = readId(pick(item, ['id', 'Id']));
  if (id === undefined) return undefined;
  return {
    id,
    title: pickText(item, ['title', 'Title']),
    content: pickText(item, ['content', 'Content']),
    pinned: readFlag(pick(item, ['topup', 'Topup'])),
    createdAt: readTimestamp(pick(item, ['created_at', 'CreatedAt', 'createdAt']), timeZone),
    // Said by this project's server only (docs/public-api.md#languages): other builds' text is as
    // written, which is Chinese.
    language: languageOf(pickText(item, ['lang', 'Lang'])),
  };
}

/**
 * The announcements of a list answer. Throws ApiFailure for a failed envelope and
 * WrongShapeError when the answer holds no list, which the screen shows as a format error.
 */
export function readBulletinList(body: unknown, timeZone?: string): Bulletin[] {
  const items = listItems(unwrapEnvelope(body));
  if (!items) throw new WrongShapeError('the announcement list answer holds no list');
  return items.flatMap((item) => toBulletin(item, timeZone) ?? []);
}

/** The announcement of a detail answer (under data or bare); undefined when there is none. */
export function readBulletinDetail(body: unknown, timeZone?: string): Bulletin | undefined {
  return toBulletin(unwrapEnvelope(body), timeZone);
}
