/**
 * The end times a save may set (docs/behaviour.md#announcements-that-stop-by-themselves): each
 * a real time later than now and than the announcement's publication, or null to clear it.
 */
import { badRequest } from '../lib/errors.js';
import { fromWireTime, nowIso } from '../lib/time.js';

export const endTimeFields = ['unpublish_at', 'unpin_at'] as const;
type Field = (typeof endTimeFields)[number];

/** The instants (ISO UTC) to store for the fields given; a field absent stays as it was. */
export function endTimes(
  body: Partial<Record<Field, string | null>>,
  publishedAt: string,
  zone: string,
): { unpublishAt?: string | null; unpinAt?: string | null } {
  const read = (field: Field): string | null | undefined => {
    const text = body[field];
    if (text === undefined || text === null) return text;
    const at = fromWireTime(text, zone);
    if (at === undefined) throw badRequest(`body/${field}: ${text} is not a real date and time`);
    if (at <= nowIso()) throw badRequest(`body/${field}: ${text} has already passed`);
    if (at <= publishedAt) throw badRequest(`body/${field}: ${text} is not after the publication time`);
    return at;
  };
  const unpublishAt = read('unpublish_at');
  const unpinAt = read('unpin_at');
  return {
    ...(unpublishAt !== undefined && { unpublishAt }),
    ...(unpinAt !== undefined && { unpinAt }),
  };
}
