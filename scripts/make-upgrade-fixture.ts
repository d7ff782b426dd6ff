/**
 * Makes server/test/fixtures/site-779785a.sqlite, the database upgrade tests start from
 * (server/test/upgrade.test.ts): migrated by the migrations of 779785a, the last release whose
 * supervisor did not migrate before SIGHUP, taken from git, and holding a little content written
 * in that schema. Run again only to make another release's fixture:
 *   node --conditions=source --import tsx scripts/make-upgrade-fixture.ts
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { connect as Connect } from '../server/src/db/connect.js';
import type { migrate as Migrate } from '../server/src/db/migrations.js';

const release = '779785a';
const root = fileURLToPath(new URL('..', import.meta.url));
// Inside the repository, so that the old modules find node_modules.
const old = join(root, '.tmp', `release-${release}`);
rmSync(old, { recursive: true, force: true });
mkdirSync(old, { recursive: true });
const archive = execFileSync('git', ['archive', release, 'server/src'], { cwd: root, maxBuffer: 1 << 28 });
execFileSync('tar', ['-x', '-C', old], { input: archive });
// Kysely 0.29, installed now, keeps the migrator apart: the one line of that build that differs.
const migrations = join(old, 'server/src/db/migrations.ts');
writeFileSync(
  migrations,
  readFileSync(migrations, 'utf8')
    .replace(
      /^import \{\n {2}Migrator,\n/,
      "import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely/migration';\nimport {\n",
    )
    .replace(/ {2}type Migration,\n {2}type MigrationProvider,\n {2}type MigrationResultSet,\n/, ''),
);

// Typed as this build's: the two functions have kept their signatures.
const { connect } = (await import(join(old, 'server/src/db/connect.ts'))) as { connect: typeof Connect };
const { migrate } = (await import(join(old, 'server/src/db/migrations.ts'))) as { migrate: typeof Migrate };
const made = join(old, 'site.sqlite');
const db = connect({ kind: 'sqlite', path: made });
await migrate(db);
const at = '2026-06-01T08:00:00.000Z';
await sql`INSERT INTO bulletins (title, content, pinned, created_at, updated_at)
  VALUES ('Before the upgrade', '<p>written by ${sql.raw(release)}</p>', 1, ${at}, ${at})`.execute(db.kysely);
await sql`INSERT INTO install_packages (os, download_url, version, updated_at)
  VALUES ('windows', 'https://dl.example.com/setup.exe', '5.0.1', ${at})`.execute(db.kysely);
await sql`INSERT INTO download_counts (day, os, downloads) VALUES ('2026-06-01', 'windows', 3)`.execute(db.kysely);
// One file, no -wal beside it.
await sql`PRAGMA journal_mode = DELETE`.execute(db.kysely);
await db.close();
const fixture = join(root, 'server/test/fixtures', `site-${release}.sqlite`);
copyFileSync(made, fixture);
rmSync(old, { recursive: true, force: true });
process.stdout.write(`${fixture}\n`);
