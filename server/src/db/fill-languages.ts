/**
 * Migration 0016's columns: every announcement and revision gets the traditional Chinese of its
 * title and body, and room for an English version written by hand
 * (docs/behaviour.md#announcements-in-every-language).
 */
import { sql, type Kysely } from 'kysely';
import { traditionalHtml, traditionalText } from '../lib/chinese-scripts.js';

const languageColumns = [
  { name: 'title_tw', text: true },
  { name: 'content_tw', text: true },
  /** 1 once the operator wrote the traditional version: it no longer follows the simplified. */
  { name: 'tw_by_hand', text: false },
  { name: 'title_en', text: true },
  { name: 'content_en', text: true },
] as const;

/** Adds the columns a table lacks: a migration whose record was lost can run again over itself. */
export async function addLanguageColumns(db: Kysely<unknown>, table: string): Promise<void> {
  const tables = await db.introspection.getTables();
  const have = new Set(tables.find((found) => found.name === table)?.columns.map((column) => column.name));
  for (const column of languageColumns) {
    if (have.has(column.name)) continue;
    await db.schema
      .alterTable(table)
      .addColumn(column.name, column.text ? 'text' : 'integer', (col) => col.notNull().defaultTo(column.text ? '' : 0))
      .execute();
  }
}

/** Converts the rows whose traditional version is still empty (all of them, the first time). */
export async function fillTraditional(db: Kysely<unknown>, table: string): Promise<void> {
  const { rows } = await sql<{ id: number; title: string; content: string }>`
    SELECT id, title, content FROM ${sql.table(table)} WHERE title_tw = ''`.execute(db);
  for (const row of rows) {
    await sql`UPDATE ${sql.table(table)}
      SET title_tw = ${traditionalText(row.title)}, content_tw = ${traditionalHtml(row.content)}
      WHERE id = ${row.id}`.execute(db);
  }
}
