/**
 * The tables of a database as its own catalog lists them, so that a backup takes every table
 * there is, including ones added by migrations written after this file
 * (docs/backups.md). Kysely's own bookkeeping tables are left out: the manifest
 * records the migrations instead.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db/connect.js';

export interface TableInfo {
  name: string;
  /** In the table's column order. */
  columns: ColumnInfo[];
  /** Its primary key's columns, in key order; empty when it has none. */
  primaryKey: string[];
  /** The tables its foreign keys point at (itself included when it points at itself). */
  references: string[];
  /** The column a sequence numbers (SQLite AUTOINCREMENT, PostgreSQL serial or identity). */
  sequenceColumn?: string;
}

export interface ColumnInfo {
  name: string;
  /** The declared type, lower case (`text`, `integer`, `bigint`, `bytea`, `boolean`, ...). */
  type: string;
}

export type AnyDb = Kysely<unknown>;

const internalTables = new Set(['kysely_migration', 'kysely_migration_lock']);

/** Every table of the application, by name. */
export async function readCatalog(db: AnyDb, dialect: Dialect): Promise<TableInfo[]> {
  const names = dialect === 'sqlite' ? await sqliteTables(db) : await postgresTables(db);
  const tables: TableInfo[] = [];
  for (const name of names.filter((table) => !internalTables.has(table)).sort()) {
    tables.push(dialect === 'sqlite' ? await sqliteTable(db, name) : await postgresTable(db, name));
  }
  return tables;
}

async function sqliteTables(db: AnyDb): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`.execute(db);
  return rows.map((row) => row.name);
}

async function sqliteTable(db: AnyDb, name: string): Promise<TableInfo> {
  const { rows: columns } = await sql<{ name: string; type: string; pk: number }>`
    SELECT name, type, pk FROM pragma_table_info(${name}) ORDER BY cid`.execute(db);
  const { rows: keys } = await sql<{ table: string }>`
    SELECT DISTINCT "table" FROM pragma_foreign_key_list(${name})`.execute(db);
  const { rows: created } = await sql<{ sql: string }>`
    SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ${name}`.execute(db);
  const primaryKey = columns
    .filter((column) => column.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((column) => column.name);
  // AUTOINCREMENT is only allowed on an INTEGER PRIMARY KEY, and is what sqlite_sequence tracks.
  const autoIncrement = /\bautoincrement\b/i.test(created[0]?.sql ?? '');
  return {
    name,
    columns: columns.map((column) => ({ name: column.name, type: column.type.toLowerCase() })),
    primaryKey,
    references: keys.map((key) => key.table),
    sequenceColumn: autoIncrement && primaryKey.length === 1 ? primaryKey[0] : undefined,
  };
}

async function postgresTables(db: AnyDb): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(db);
  return rows.map((row) => row.name);
}

async function postgresTable(db: AnyDb, name: string): Promise<TableInfo> {
  const { rows: columns } = await sql<{ name: string; type: string; sequence: string | null }>`
    SELECT column_name AS name, data_type AS type,
      pg_get_serial_sequence(quote_ident(table_name), column_name) AS sequence
    FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ${name}
    ORDER BY ordinal_position`.execute(db);
  const { rows: keyColumns } = await sql<{ name: string }>`
    SELECT a.attname AS name FROM pg_index i
    JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
    WHERE i.indrelid = to_regclass(quote_ident(${name})) AND i.indisprimary
    ORDER BY array_position(i.indkey::int2[], a.attnum)`.execute(db);
  const { rows: keys } = await sql<{ table: string }>`
    SELECT DISTINCT c.relname AS "table" FROM pg_constraint k JOIN pg_class c ON c.oid = k.confrelid
    WHERE k.contype = 'f' AND k.conrelid = to_regclass(quote_ident(${name}))`.execute(db);
  return {
    name,
    columns: columns.map((column) => ({ name: column.name, type: column.type.toLowerCase() })),
    primaryKey: keyColumns.map((column) => column.name),
    references: keys.map((key) => key.table),
    sequenceColumn: columns.find((column) => column.sequence !== null)?.name,
  };
}

/** The next value the table's sequence would hand out, or undefined when it has none yet. */
export async function readSequence(db: AnyDb, dialect: Dialect, table: TableInfo): Promise<number | undefined> {
  const column = table.sequenceColumn;
  if (column === undefined) return undefined;
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ seq: number }>`
      SELECT seq FROM sqlite_sequence WHERE name = ${table.name}`.execute(db);
    return rows[0] === undefined ? undefined : Number(rows[0].seq) + 1;
  }
  const { rows: named } = await sql<{ sequence: string }>`
    SELECT pg_get_serial_sequence(quote_ident(${table.name}), ${column}) AS sequence`.execute(db);
  const { rows } = await sql<{ last_value: number; is_called: boolean }>`
    SELECT last_value, is_called FROM ${sql.raw(named[0]?.sequence ?? '')}`.execute(db);
  const state = rows[0];
  if (state === undefined) return undefined;
  return state.is_called ? Number(state.last_value) + 1 : Number(state.last_value);
}

/** Moves the table's sequence so that it next hands out `next` (or later, past every id in the
 * table): a restored row keeps its id, and a new one never reuses an id, even a deleted one's. */
export async function writeSequence(db: AnyDb, dialect: Dialect, table: TableInfo, next: number): Promise<void> {
  const column = table.sequenceColumn;
  if (column === undefined) return;
  const { rows } = await sql<{ top: number | null }>`
    SELECT MAX(${sql.ref(column)}) AS top FROM ${sql.table(table.name)}`.execute(db);
  const value = Math.max(next, Number(rows[0]?.top ?? 0) + 1);
  if (dialect === 'sqlite') {
    await sql`DELETE FROM sqlite_sequence WHERE name = ${table.name}`.execute(db);
    await sql`INSERT INTO sqlite_sequence (name, seq) VALUES (${table.name}, CAST(${value - 1} AS INTEGER))`.execute(
      db,
    );
    return;
  }
  await sql`SELECT setval(pg_get_serial_sequence(quote_ident(${table.name}), ${column}), ${value}, false)`.execute(db);
}

/** The tables in an order that inserts every referenced row before the rows that refer to it. */
export function dependencyOrder(tables: TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((table) => [table.name, table]));
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (table: TableInfo) => {
    if (placed.has(table.name)) return;
    if (visiting.has(table.name)) throw new Error(`the foreign keys of ${table.name} form a cycle`);
    visiting.add(table.name);
    for (const name of table.references) {
      const referenced = byName.get(name);
      if (referenced !== undefined && name !== table.name) place(referenced);
    }
    visiting.delete(table.name);
    placed.add(table.name);
    ordered.push(table);
  };
  for (const table of tables) place(table);
  return ordered;
}

/** The names of the migrations this database has run, in order. */
export async function appliedMigrations(db: AnyDb, dialect: Dialect): Promise<string[]> {
  const exists =
    dialect === 'sqlite'
      ? await sql`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'`.execute(db)
      : await sql`SELECT 1 FROM information_schema.tables
          WHERE table_schema = current_schema() AND table_name = 'kysely_migration'`.execute(db);
  if (exists.rows.length === 0) return [];
  const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db);
  return rows.map((row) => row.name);
}
