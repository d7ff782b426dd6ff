import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely/migration';
import type { FileStorage } from '../storage/index.js';
import { changeChannel } from './changes.js';
import type { Db, Dialect } from './connect.js';
import { fillContentText } from './fill-content-text.js';
import { addLanguageColumns, fillTraditional } from './fill-languages.js';
import { addNoteColumns, fillTraditionalNotes } from './fill-note-languages.js';
import { fillSha512 } from './fill-sha512.js';
import { moveBlobsToStorage } from './move-blobs.js';

/** One list of migrations for both dialects; the few types that differ are chosen per dialect. */
function migrations(dialect: Dialect, storage: FileStorage | undefined): Record<string, Migration> {
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';
  return {
    '0001_initial': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('bulletins')
          .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (col) =>
            dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement(),
          )
          .addColumn('title', 'text', (col) => col.notNull())
          .addColumn('content', 'text', (col) => col.notNull())
          .addColumn('pinned', 'integer', (col) => col.notNull().defaultTo(0))
          .addColumn('created_at', 'text', (col) => col.notNull())
          .addColumn('updated_at', 'text', (col) => col.notNull())
          .execute();
        await db.schema
          .createIndex('bulletins_order')
          .on('bulletins')
          .columns(['pinned', 'created_at', 'id'])
          .execute();
        await db.schema
          .createTable('install_packages')
          .addColumn('os', 'text', (col) => col.primaryKey())
          .addColumn('download_url', 'text', (col) => col.notNull())
          .addColumn('version', 'text')
          .addColumn('size', 'bigint')
          .addColumn('sha256', 'text')
          .addColumn('released_at', 'text')
          .addColumn('release_notes_url', 'text')
          .addColumn('updated_at', 'text', (col) => col.notNull())
          .execute();
        await db.schema
          .createTable('settings')
          .addColumn('key', 'text', (col) => col.primaryKey())
          .addColumn('value', 'text', (col) => col.notNull())
          .addColumn('updated_at', 'text', (col) => col.notNull())
          .execute();
        await db.schema
          .createTable('stored_files')
          .addColumn('key', 'text', (col) => col.primaryKey())
          .addColumn('name', 'text', (col) => col.notNull())
          .addColumn('content_type', 'text', (col) => col.notNull())
          .addColumn('size', 'bigint', (col) => col.notNull())
          .addColumn('sha256', 'text', (col) => col.notNull())
          .addColumn('data', sql.raw(blob), (col) => col.notNull())
          .addColumn('created_at', 'text', (col) => col.notNull())
          .execute();
      },
    },
    '0002_download_counts': {
      async up(db: Kysely<unknown>) {
        // One row per day (in TIME_ZONE) and platform, bumped by an upsert on every /dl hit.
        await db.schema
          .createTable('download_counts')
          .addColumn('day', 'text', (col) => col.notNull())
          .addColumn('os', 'text', (col) => col.notNull())
          .addColumn('downloads', 'integer', (col) => col.notNull())
          .addPrimaryKeyConstraint('download_counts_pk', ['day', 'os'])
          .execute();
      },
    },
    // Every committed write to published content tells the other servers on this database
    // (LISTEN in db/changes.ts), whoever made it: a server, the admin command line, an operator
    // in psql. SQLite needs nothing here: its data_version does the same job.
    '0003_change_notices': {
      async up(db: Kysely<unknown>) {
        if (dialect !== 'postgres') return;
        await sql`
          CREATE OR REPLACE FUNCTION chat_site_content_changed() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            PERFORM pg_notify(${sql.lit(changeChannel)}, TG_TABLE_NAME);
            RETURN NULL;
          END $$`.execute(db);
        for (const table of contentTables) {
          await sql`
            CREATE TRIGGER ${sql.id(`${table}_changed`)}
            AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
            FOR EACH STATEMENT EXECUTE FUNCTION chat_site_content_changed()`.execute(db);
        }
      },
    },
    // Hosted files move to the file storage (docs/storage.md): each blob is
    // written there and read back against its SHA-256 before the column goes. It all happens in
    // the migration's transaction, so a run that stops half way leaves the database as it was,
    // and the next run writes the same files again under the same keys.
    '0004_files_outside_database': {
      async up(db: Kysely<unknown>) {
        await moveBlobsToStorage(db, storage);
        await db.schema.alterTable('stored_files').addColumn('uploaded_by', 'text').execute();
        await db.schema.alterTable('stored_files').dropColumn('data').execute();
      },
    },
    '0005_accounts': {
      async up(db: Kysely<unknown>) {
        const id = (col: ColumnDefinitionBuilder) =>
          dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement();
        const idType = dialect === 'postgres' ? 'serial' : 'integer';
        await db.schema
          .createTable('users')
          .addColumn('id', idType, id)
          .addColumn('name', 'text', (col) => col.notNull())
          .addColumn('name_key', 'text', (col) => col.notNull().unique())
          .addColumn('role', 'text', (col) => col.notNull())
          .addColumn('password_hash', 'text', (col) => col.notNull())
          .addColumn('created_at', 'text', (col) => col.notNull())
          .addColumn('updated_at', 'text', (col) => col.notNull())
          .execute();
        await db.schema
          .createTable('sessions')
          .addColumn('token_hash', 'text', (col) => col.primaryKey())
          .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
          .addColumn('created_at', 'text', (col) => col.notNull())
          .addColumn('last_seen_at', 'text', (col) => col.notNull())
          .addColumn('expires_at', 'text', (col) => col.notNull())
          .addColumn('client', 'text', (col) => col.notNull())
          .addColumn('user_agent', 'text', (col) => col.notNull())
          .execute();
        await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
        await db.schema
          .createTable('audit_log')
          .addColumn('id', idType, id)
          .addColumn('at', 'text', (col) => col.notNull())
          .addColumn('actor', 'text', (col) => col.notNull())
          .addColumn('action', 'text', (col) => col.notNull())
          .addColumn('target', 'text', (col) => col.notNull())
          .addColumn('before', 'text')
          .addColumn('after', 'text')
          .execute();
        await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
      },
    },
    // Drafts, scheduled publication (a created_at still to come), versions for optimistic
    // concurrency, and deletion that can be undone for a while.
    '0006_bulletin_drafts': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable('bulletins')
          .addColumn('state', 'text', (col) => col.notNull().defaultTo('published'))
          .execute();
        await db.schema
          .alterTable('bulletins')
          .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
          .execute();
        await db.schema.alterTable('bulletins').addColumn('deleted_at', 'text').execute();
      },
    },
    // Every published release of each platform is kept (docs/behaviour.md#releases); the package
    // list's entry names the one it serves now. The entries already there become the first
    // release of their platform.
    '0007_releases': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('releases')
          .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (col) =>
            dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement(),
          )
          .addColumn('os', 'text', (col) => col.notNull())
          .addColumn('download_url', 'text', (col) => col.notNull())
          .addColumn('file_key', 'text')
          .addColumn('version', 'text')
          .addColumn('notes', 'text')
          .addColumn('release_notes_url', 'text')
          .addColumn('released_at', 'text')
          .addColumn('size', 'bigint')
          .addColumn('sha256', 'text')
          .addColumn('min_os', 'text')
          .addColumn('created_by', 'text', (col) => col.notNull())
          .addColumn('created_at', 'text', (col) => col.notNull())
          .execute();
        await db.schema.createIndex('releases_os').on('releases').columns(['os', 'id']).execute();
        await db.schema.alterTable('install_packages').addColumn('release_id', 'integer').execute();
        const { rows } = await sql<Record<string, string | number | null>>`
          select os, download_url, version, size, sha256, released_at, release_notes_url, updated_at
          from install_packages`.execute(db);
        for (const row of rows) {
          const key = /^file\/preview\/([^/?#]+)$/.exec(String(row.download_url))?.[1] ?? null;
          const { rows: made } = await sql<{ id: number }>`
            insert into releases (os, download_url, file_key, version, release_notes_url, released_at, size, sha256,
              created_by, created_at)
            values (${row.os}, ${row.download_url}, ${key}, ${row.version}, ${row.release_notes_url},
              ${row.released_at}, ${row.size}, ${row.sha256}, 'migration', ${row.updated_at})
            returning id`.execute(db);
          await sql`update install_packages set release_id = ${made[0]?.id ?? null} where os = ${row.os}`.execute(db);
        }
      },
    },
    // Sign-in attempts, counted where every worker and server sees them
    // (docs/console.md#sign-in-limits): one row per account, per client, and per pair of both.
    '0008_sign_in_attempts': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('sign_in_attempts')
          .addColumn('key', 'text', (col) => col.primaryKey())
          .addColumn('attempts', 'integer', (col) => col.notNull())
          .addColumn('since', 'text', (col) => col.notNull())
          .execute();
        await db.schema.createIndex('sign_in_attempts_since').on('sign_in_attempts').column('since').execute();
      },
    },
    // The installed apps' update checks (docs/releases.md#update-checks): a release may force
    // the update and carry the Tauri updater's signature; hosted files get a SHA-512, each file
    // streamed from the storage once.
    '0009_update_checks': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable('releases')
          .addColumn('is_force', 'integer', (col) => col.notNull().defaultTo(0))
          .execute();
        await db.schema.alterTable('releases').addColumn('signature', 'text').execute();
        await db.schema.alterTable('stored_files').addColumn('sha512', 'text').execute();
        await fillSha512(db, storage);
      },
    },
    // Every save of an announcement is kept as a revision (docs/console.md#revisions). Purging
    // an announcement for good takes its revisions with it (on delete cascade).
    '0010_bulletin_revisions': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('bulletin_revisions')
          .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (col) =>
            dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement(),
          )
          .addColumn('bulletin_id', 'integer', (col) => col.notNull().references('bulletins.id').onDelete('cascade'))
          .addColumn('version', 'integer', (col) => col.notNull())
          .addColumn('title', 'text', (col) => col.notNull())
          .addColumn('content', 'text', (col) => col.notNull())
          .addColumn('pinned', 'integer', (col) => col.notNull())
          .addColumn('state', 'text', (col) => col.notNull())
          .addColumn('publish_at', 'text', (col) => col.notNull())
          .addColumn('action', 'text', (col) => col.notNull())
          .addColumn('restored_from', 'integer')
          .addColumn('actor', 'text', (col) => col.notNull())
          .addColumn('at', 'text', (col) => col.notNull())
          .execute();
        await db.schema
          .createIndex('bulletin_revisions_bulletin')
          .on('bulletin_revisions')
          .columns(['bulletin_id', 'id'])
          .execute();
      },
    },
    // Announcements that stop by themselves (docs/behaviour.md#announcements-that-stop-by-themselves):
    // the scheduler unpublishes or unpins them at these instants. content_text is the body's
    // text without its markup, which the console's search reads.
    '0011_bulletin_end_times': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('bulletins').addColumn('unpublish_at', 'text').execute();
        await db.schema.alterTable('bulletins').addColumn('unpin_at', 'text').execute();
        await db.schema
          .alterTable('bulletins')
          .addColumn('content_text', 'text', (col) => col.notNull().defaultTo(''))
          .execute();
        await fillContentText(db);
      },
    },
    // 0003's triggers sent a notice for every statement on a content table, rows or none: an
    // UPDATE that lost a race or a sweep that found nothing dropped every server's cache. These
    // notify only for a statement that changed rows, which each trigger's transition table holds;
    // PostgreSQL gives transition tables to single-event triggers only, hence one per event.
    '0012_change_notices_for_rows': {
      async up(db: Kysely<unknown>) {
        if (dialect !== 'postgres') return;
        await sql`
          CREATE OR REPLACE FUNCTION chat_site_content_changed() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            IF TG_OP = 'TRUNCATE' THEN
              PERFORM pg_notify(${sql.lit(changeChannel)}, TG_TABLE_NAME);
            ELSIF EXISTS (SELECT FROM changed_rows) THEN
              PERFORM pg_notify(${sql.lit(changeChannel)}, TG_TABLE_NAME);
            END IF;
            RETURN NULL;
          END $$`.execute(db);
        for (const table of contentTables) {
          await sql`DROP TRIGGER IF EXISTS ${sql.id(`${table}_changed`)} ON ${sql.table(table)}`.execute(db);
          await createChangeTriggers(db, table);
        }
      },
    },
    // The update offer and the changelog answer from releases too. The servers wrote its rows only
    // beside a notified change of install_packages, but a release's notes mended in psql went
    // unseen by the other servers' caches until the next change.
    '0013_change_notices_for_releases': {
      async up(db: Kysely<unknown>) {
        if (dialect === 'postgres') await createChangeTriggers(db, 'releases');
      },
    },
    // The tables below are made only where missing, so that a migration whose record was lost runs
    // again over itself (server/test/cluster.test.ts deletes the newest record to see it run).
    // Visits from the chat apps' built-in browsers and the guides shown in them
    // (docs/site.md#in-app-browsers): one row per day and app, whatever the traffic.
    '0014_in_app_counts': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('in_app_counts')
          .ifNotExists()
          .addColumn('day', 'text', (col) => col.notNull())
          .addColumn('app', 'text', (col) => col.notNull())
          .addColumn('visits', 'integer', (col) => col.notNull().defaultTo(0))
          .addColumn('guides', 'integer', (col) => col.notNull().defaultTo(0))
          .addPrimaryKeyConstraint('in_app_counts_pk', ['day', 'app'])
          .execute();
      },
    },
    // One download per client, platform and day (downloads/visitors.ts): who has been counted
    // today, as salted hashes, and the day's salt; both lose their rows when the day ends.
    '0015_download_visitors': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('download_visitors')
          .ifNotExists()
          .addColumn('day', 'text', (col) => col.notNull())
          .addColumn('os', 'text', (col) => col.notNull())
          .addColumn('visitor', 'text', (col) => col.notNull())
          .addPrimaryKeyConstraint('download_visitors_pk', ['day', 'os', 'visitor'])
          .execute();
        await db.schema
          .createTable('download_salts')
          .ifNotExists()
          .addColumn('day', 'text', (col) => col.primaryKey())
          .addColumn('salt', 'text', (col) => col.notNull())
          .execute();
      },
    },
    // Staged roll-outs (docs/releases.md#staged-roll-out): per platform, the release being rolled
    // out, the one before it, the share of installs offered it and whether it is halted. The salt
    // picks which installs are in the share; installs themselves are never stored.
    '0016_rollouts': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('rollouts')
          .ifNotExists()
          .addColumn('os', 'text', (col) => col.primaryKey())
          .addColumn('release_id', 'integer', (col) => col.notNull())
          .addColumn('previous_release_id', 'integer', (col) => col.notNull())
          .addColumn('percentage', 'integer', (col) => col.notNull())
          .addColumn('halted', 'integer', (col) => col.notNull().defaultTo(0))
          .addColumn('salt', 'text', (col) => col.notNull())
          .addColumn('updated_at', 'text', (col) => col.notNull())
          .execute();
        if (dialect === 'postgres') await createChangeTriggers(db, 'rollouts');
      },
    },
    // Who has updated (docs/releases.md#who-has-updated): the update checks of each day, platform
    // and reported version (a version never published counted as 'other'), and how many installs
    // made them. No address is kept: an install is counted once a day through download_visitors.
    '0017_update_check_counts': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('update_check_counts')
          .ifNotExists()
          .addColumn('day', 'text', (col) => col.notNull())
          .addColumn('os', 'text', (col) => col.notNull())
          .addColumn('version', 'text', (col) => col.notNull())
          .addColumn('checks', 'integer', (col) => col.notNull().defaultTo(0))
          .addColumn('installs', 'integer', (col) => col.notNull().defaultTo(0))
          .addPrimaryKeyConstraint('update_check_counts_pk', ['day', 'os', 'version'])
          .execute();
      },
    },
    // Announcements in every language the site speaks (docs/behaviour.md#announcements-in-every-language):
    // the traditional Chinese made from the simplified, whether the operator wrote it by hand, and
    // an English version; revisions keep them too. Only an install with announcements loads the
    // converter here.
    '0018_bulletin_languages': {
      async up(db: Kysely<unknown>) {
        for (const table of ['bulletins', 'bulletin_revisions']) {
          await addLanguageColumns(db, table);
          await fillTraditional(db, table);
        }
      },
    },
    // Update payloads (docs/releases.md#update-payloads): beside a release's download, the files
    // installed apps' updaters fetch, in the order published (id order: the first electron payload
    // is latest.yml's `path`). arch null: every architecture of the platform.
    '0019_release_payloads': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('release_payloads')
          .ifNotExists()
          .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (col) =>
            dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement(),
          )
          .addColumn('release_id', 'integer', (col) => col.notNull())
          .addColumn('role', 'text', (col) => col.notNull())
          .addColumn('arch', 'text')
          .addColumn('download_url', 'text', (col) => col.notNull())
          .addColumn('file_key', 'text')
          .addColumn('size', 'bigint')
          .addColumn('sha256', 'text')
          .addColumn('sha512', 'text')
          .addColumn('signature', 'text')
          .execute();
        await db.schema
          .createIndex('release_payloads_release')
          .ifNotExists()
          .on('release_payloads')
          .columns(['release_id', 'id'])
          .execute();
        if (dialect === 'postgres') await createChangeTriggers(db, 'release_payloads');
      },
    },
    // Release notes in every language (docs/behaviour.md#release-notes-in-every-language): the
    // traditional made from the simplified, whether the operator wrote it, and English by hand.
    '0020_release_note_languages': {
      async up(db: Kysely<unknown>) {
        await addNoteColumns(db);
        await fillTraditionalNotes(db);
      },
    },
  };
}

/** 0012's change-notice triggers on `table`: one per event, each with the transition table it
 * reads (TRUNCATE has none). Each is dropped first, so that a migration can run again over itself. */
async function createChangeTriggers(db: Kysely<unknown>, table: string): Promise<void> {
  const events = { INSERT: 'NEW', UPDATE: 'NEW', DELETE: 'OLD', TRUNCATE: undefined };
  for (const [event, rows] of Object.entries(events)) {
    const name = sql.id(`${table}_${event.toLowerCase()}_changed`);
    const referencing = rows === undefined ? sql`` : sql`REFERENCING ${sql.raw(rows)} TABLE AS changed_rows`;
    await sql`DROP TRIGGER IF EXISTS ${name} ON ${sql.table(table)}`.execute(db);
    await sql`
      CREATE TRIGGER ${name} AFTER ${sql.raw(event)} ON ${sql.table(table)} ${referencing}
      FOR EACH STATEMENT EXECUTE FUNCTION chat_site_content_changed()`.execute(db);
  }
}

/** The names of every migration this build knows, in order (the same in both dialects). */
export const knownMigrations: readonly string[] = Object.keys(migrations('sqlite', undefined)).sort();

/** The known migrations the database has not had yet (none once `migrate` has run); throws when
 * the database cannot be read. Reads Kysely's own record of the migrations it has run. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const applied = new Set(
    (await sql<{ name: string }>`select name from kysely_migration`.execute(db.kysely)).rows.map((row) => row.name),
  );
  return knownMigrations.filter((name) => !applied.has(name));
}

/** The tables whose rows the public API answers from, as 0003 and 0012 knew them (0013 adds
 * releases). */
const contentTables = ['bulletins', 'install_packages', 'settings', 'stored_files'];

/** Brings the schema up to date; the file storage is needed when there are hosted files to move
 * out of an older database. Safe to run from several servers starting at once. On
 * PostgreSQL Kysely holds an advisory lock. SQLite has no lock of Kysely's across processes, so
 * the whole run is one `BEGIN IMMEDIATE` transaction: it takes the file's write lock first (the
 * others wait, up to the busy timeout), then reads which migrations are done. A later process
 * finds them all done; a failed run leaves nothing half made. */
export async function migrate(
  db: Db,
  storage?: FileStorage,
  upTo?: string,
  onRun?: (migration: { name: string; ms: number }) => void,
): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => timed(migrations(db.dialect, storage), onRun) };
  const migrator = new Migrator({ db: db.kysely, provider });
  // Tests build old schemas by stopping at an earlier migration.
  const run = () => (upTo === undefined ? migrator.migrateToLatest() : migrator.migrateTo(upTo));
  if (db.dialect !== 'sqlite') return report(await run());
  // The usual case, a schema already up to date, needs no write lock: several command-line runs
  // or workers starting at once then do not queue behind each other's lock.
  if (upTo === undefined && (await upToDate(db))) return;
  // better-sqlite3 is one connection, so these statements and Kysely's share the transaction.
  await sql`begin immediate`.execute(db.kysely);
  try {
    report(await run());
    await sql`commit`.execute(db.kysely);
  } catch (error) {
    await sql`rollback`.execute(db.kysely);
    throw error;
  }
}

/** Whether the database has run exactly the migrations this build knows; false when it cannot
 * tell (a new file, without Kysely's table). */
async function upToDate(db: Db): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db.kysely);
    const applied = new Set(rows.map((row) => row.name));
    return applied.size === knownMigrations.length && knownMigrations.every((name) => applied.has(name));
  } catch {
    return false;
  }
}

/** Each migration, telling `onRun` its name and how long it took once it has run
 * (docs/deploy.md#upgrades: the log names each). */
function timed(
  list: Record<string, Migration>,
  onRun: ((migration: { name: string; ms: number }) => void) | undefined,
): Record<string, Migration> {
  if (onRun === undefined) return list;
  return Object.fromEntries(
    Object.entries(list).map(([name, migration]) => [
      name,
      {
        ...migration,
        async up(db: Kysely<unknown>) {
          const started = performance.now();
          await migration.up(db);
          onRun({ name, ms: Math.round(performance.now() - started) });
        },
      },
    ]),
  );
}

function report({ error, results }: MigrationResultSet): void {
  const failed = results?.find((result) => result.status === 'Error');
  if (error === undefined && failed === undefined) return;
  const reason = error instanceof Error ? error.message : String(error ?? '');
  // Kysely's words for a database that has run a migration this build does not have.
  const unknown = /previously executed migration (\S+) is missing/.exec(reason)?.[1];
  if (unknown !== undefined) {
    throw new Error(
      `The database has had migration ${unknown}, which this build does not know: a newer build of the server ` +
        'has run on it. Start that build or a newer one (docs/deploy.md#upgrades).',
    );
  }
  throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
}
