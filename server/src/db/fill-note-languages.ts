/**
 * Migration 0019's columns: a release's notes in traditional Chinese, made from the simplified
 * as an announcement's are, and room for English written by hand
 * (docs/behaviour.md#release-notes-in-every-language). Notes are plain text: all of it converts.
 */
import { sql, type Kysely } from 'kysely';
import { traditionalText } from '../lib/chinese-scripts.js';

const noteColumns = [
  { name: 'notes_tw', text: true },
  /** 1 once the operator wrote the traditional notes rather than taking the converter's. */
  { name: 'notes_tw_by_hand', text: false },
  { name: 'notes_en', text: true },
] as const;

/** Adds the columns `releases` lacks: a migration whose record was lost can run again over itself. */
export async function addNoteColumns(db: Kysely<unknown>): Promise<void> {
  const tables = await db.introspection.getTables();
  const have = new Set(tables.find((found) => found.name === 'releases')?.columns.map((column) => column.name));
  for (const column of noteColumns) {
    if (have.has(column.name)) continue;
    await db.schema
      .alterTable('releases')
      .addColumn(column.name, column.text ? 'text' : 'integer', (col) =>
        column.text ? col : col.notNull().defaultTo(0),
      )
      .execute();
  }
}

/** Converts the notes of the releases that have notes and no traditional version yet. */
export async function fillTraditionalNotes(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ id: number; notes: string }>`
    SELECT id, notes FROM releases WHERE notes IS NOT NULL AND notes_tw IS NULL`.execute(db);
  for (const row of rows) {
    await sql`UPDATE releases SET notes_tw = ${traditionalText(row.notes)} WHERE id = ${row.id}`.execute(db);
  }
}
