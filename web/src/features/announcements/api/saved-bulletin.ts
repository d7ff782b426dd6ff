import type { Bulletin } from '@chat-site/contract';

/** A saved announcement still has every field a screen reads (its HTML is cleaned again when
 * shown, like any other). */
export function isSavedBulletin(value: unknown): value is Bulletin {
  if (typeof value !== 'object' || value === null) return false;
  const item = value as Record<string, unknown>;
  return (
    ['id', 'title', 'content', 'createdAt'].every((name) => typeof item[name] === 'string') &&
    typeof item.pinned === 'boolean'
  );
}
