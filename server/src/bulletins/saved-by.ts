import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Who saved announcement `id` last, from the audit log (an operator's name, `admin-token`,
 * `cli`), or null when it has no record: the conflict dialog says who saved in between, or that
 * it was the same account in another tab (docs/console.md#two-operators-one-announcement).
 */
export async function lastSavedBy(db: Kysely<Database>, id: number): Promise<string | null> {
  const row = await db
    .selectFrom('audit_log')
    .select('actor')
    .where('target', '=', String(id))
    .where('action', 'in', [
      'bulletin.create',
      'bulletin.update',
      'bulletin.restore',
      'bulletin.revision.restore',
      'bulletin.unpublish',
      'bulletin.unpin',
    ])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.actor ?? null;
}
