import { sql, type Kysely } from 'kysely';
import { htmlText } from '../lib/html-text.js';

/** Gives every announcement written before migration 0011 the text of its body, for search. */
export async function fillContentText(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ id: number; content: string }>`SELECT id, content FROM bulletins`.execute(db);
  for (const row of rows) {
    await sql`UPDATE bulletins SET content_text = ${htmlText(row.content)} WHERE id = ${row.id}`.execute(db);
  }
}
