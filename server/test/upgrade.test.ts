/**
 * Upgrading a real database made by an older release (fixtures/site-779785a.sqlite, made by
 * scripts/make-upgrade-fixture.ts with that release's migrations) with the build on disk, both
 * ways a new build's server code comes to run (docs/deploy.md#upgrades): a start of this build,
 * whose supervisor migrates before any worker starts, and a worker started by an older build's
 * supervisor, which does not. Either way no worker serves with migrations pending, and the log
 * names each migration run and how long it took. A worker whose migrations fail refuses to serve.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { knownMigrations } from '../src/db/migrations.js';
import { spawnServer, testEnv, type ServerProcess, type TestDatabase } from './helpers.js';
import { lines, logged } from './worker-logs.js';

const fixture = join(import.meta.dirname, 'fixtures', 'site-779785a.sqlite');
const work = mkdtempSync(join(tmpdir(), 'chat-site-upgrade-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A copy of the old release's database, with a file storage beside it. */
function oldDatabase(name: string): TestDatabase & { path: string } {
  const path = join(work, `${name}.sqlite`);
  copyFileSync(fixture, path);
  return {
    path,
    url: `sqlite:${path}`,
    storageEnv: { STORAGE_URL: `file:${join(work, `${name}-files`)}` },
    drop: async () => undefined,
  };
}

function appliedMigrations(path: string): string[] {
  const db = new SQLite(path, { readonly: true });
  try {
    return (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map(
      (row) => row.name,
    );
  } finally {
    db.close();
  }
}

/** The fixture's schema lacks these: what an upgrade must run. */
const oldMigrations = appliedMigrations(oldDatabase('probe').path);
const newer = () => knownMigrations.filter((name) => !oldMigrations.includes(name));

async function servesTheOldContent(server: ServerProcess): Promise<void> {
  const ready = await fetch(`${server.url}/readyz`);
  assert.equal(ready.status, 200, await ready.text());
  const page = (await (await fetch(`${server.url}/v1/bulletin/page?page_index=1&page_size=5`)).json()) as {
    list: { title: string }[];
  };
  assert.deepEqual(
    page.list.map((bulletin) => bulletin.title),
    ['Before the upgrade'],
  );
}

async function assertEachMigrationLogged(server: ServerProcess): Promise<void> {
  // The log goes out in batches (lib/log-destination.ts): wait for the last migration's line.
  const last = newer().at(-1);
  await logged(server, (line) => (line as { migration?: string }).migration === last);
  const ran = lines(server).filter((line) => (line as { migration?: string }).migration !== undefined);
  assert.deepEqual(
    ran.map((line) => (line as { migration?: string }).migration),
    newer(),
  );
  for (const line of ran) assert.match(line.msg, /^migration \S+ ran in \d+ ms$/);
}

describe('upgrading a database of 779785a', () => {
  test('the fixture lacks migrations of this build', () => {
    assert.ok(newer().length > 0);
  });

  test('a start of this build migrates it first and serves its content', async () => {
    const database = oldDatabase('fresh');
    const server = await spawnServer(testEnv(database));
    try {
      await servesTheOldContent(server);
      await assertEachMigrationLogged(server);
      assert.deepEqual(appliedMigrations(database.path), [...knownMigrations]);
    } finally {
      await server.stop();
    }
  });

  test('a worker started by a supervisor that did not migrate migrates before it serves, and says so', async () => {
    const database = oldDatabase('old-supervisor');
    const server = await spawnServer(testEnv(database), {
      script: 'server/test/fixtures/supervisor-that-does-not-migrate.mjs',
    });
    try {
      await servesTheOldContent(server);
      await logged(server, (line) => line.msg === 'migrated the database before serving');
      await assertEachMigrationLogged(server);
      assert.ok(lines(server).some((line) => line.msg.startsWith("migrations pending at a worker's start")));
      assert.deepEqual(appliedMigrations(database.path), [...knownMigrations]);
    } finally {
      await server.stop();
    }
  });

  test('a worker whose pending migrations fail refuses to serve, and says so', async () => {
    const database = oldDatabase('failing');
    // A table in the way of a migration of this build: it fails, and is rolled back.
    const db = new SQLite(database.path);
    db.exec('CREATE TABLE bulletin_revisions (id integer)');
    db.close();
    await assert.rejects(
      spawnServer(testEnv(database), { script: 'server/test/fixtures/supervisor-that-does-not-migrate.mjs' }),
      (error: Error) => /refusing to serve: the pending migrations failed/.test(error.message),
    );
    assert.deepEqual(appliedMigrations(database.path), oldMigrations);
  });
});
