/**
 * How a database is named to an operator: the command line says which one it wrote to, and the
 * server's start-up hint gives the DATABASE_URL that reaches the one it uses
 * (docs/console.md#getting-in). A password is never printed.
 */
import type { DatabaseTarget } from '../config.js';

/** "the SQLite file /srv/site/data/site.db", "the PostgreSQL database site on db:5432". */
export function databaseName(target: DatabaseTarget): string {
  if (target.kind === 'sqlite') return `the SQLite file ${target.path}`;
  const url = new URL(target.url);
  const name = decodeURIComponent(url.pathname.slice(1)) || '(default)';
  return `the PostgreSQL database ${name} on ${url.host}`;
}

/** A DATABASE_URL to type for the same database: absolute for SQLite, so it works from any
 * directory; PASSWORD stands for PostgreSQL's password. */
export function databaseUrlToType(target: DatabaseTarget): string {
  if (target.kind === 'sqlite') return `sqlite:${target.path}`;
  const url = new URL(target.url);
  if (url.password !== '') url.password = 'PASSWORD';
  return url.toString();
}
