/**
 * The migration that moves hosted files out of the database into the file storage: on a SQLite
 * file written by the code that kept them inside (fixtures/pre-storage.db), and on databases of
 * either dialect brought to the old schema and filled here; interrupted half way, run again,
 * and faced with a blob that does not match its hash. On the storage TEST_STORAGE names.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { after, test } from 'node:test';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { connect, type Db } from '../src/db/connect.js';
import { knownMigrations, migrate } from '../src/db/migrations.js';
import { storageFor, type FileStorage } from '../src/storage/index.js';
import { createTestDatabase, createTestStorage, dialect, repoRoot, testEnv, type TestDatabase } from './helpers.js';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function columns(db: Db): Promise<string[]> {
  const tables = await db.kysely.introspection.getTables();
  return (tables.find((table) => table.name === 'stored_files')?.columns ?? []).map((column) => column.name).sort();
}

async function doneMigrations(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db.kysely);
  return rows.map((row) => row.name);
}

/** What the fixture holds: made with the admin command line of the code before the move. */
const fixtureFiles: Record<string, { sha256: string; size: number; type: string }> = {
  '6f0edf3388531abb-banner.png': {
    sha256: '6f0edf3388531abbf28257884c33d0f695d73624e94ae40a5031007805ed7895',
    size: 172,
    type: 'image/png',
  },
  'edbb5a129b93664c-welcome.svg': {
    sha256: 'edbb5a129b93664ccc0287b361fc1f2b95e97859909d026002d38e3b55dda385',
    size: 1589,
    type: 'image/svg+xml',
  },
  'c9ced2977a6532c4-app-5.0.0.apk': {
    sha256: 'c9ced2977a6532c4fd46c73c43fb0fa28736f54139f174715fece21d44089f6d',
    size: 119,
    type: 'application/vnd.android.package-archive',
  },
  '9d9805b0b2983bf7-5.0.1.apk': {
    sha256: '9d9805b0b2983bf798b1010adf87d7584c33dad8de3477578dae0ef411e9c5b7',
    size: 204804,
    type: 'application/vnd.android.package-archive',
  },
};

test(
  'a database written before the move: every file comes out of it with its bytes and hash',
  {
    skip: dialect !== 'sqlite' && 'the fixture is a SQLite file',
  },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chat-site-fixture-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    copyFileSync(join(repoRoot, 'server/test/fixtures/pre-storage.db'), join(dir, 'site.db'));
    const files = await createTestStorage();
    cleanups.push(files.drop);
    const database: TestDatabase = {
      url: `sqlite:${join(dir, 'site.db')}`,
      storageEnv: files.env,
      drop: async () => {},
    };
    const config = loadConfig(testEnv(database));
    const db = connect(config.database);
    cleanups.push(() => db.close());
    const storage = storageFor(config.storage);
    assert.ok((await columns(db)).includes('data'), 'the fixture keeps its files inside');

    await migrate(db, storage);
    assert.deepEqual(await columns(db), [
      'content_type',
      'created_at',
      'key',
      'name',
      'sha256',
      'sha512',
      'size',
      'uploaded_by',
    ]);
    const rows = await db.kysely.selectFrom('stored_files').selectAll().orderBy('key').execute();
    assert.deepEqual(rows.map((row) => row.key).sort(), Object.keys(fixtureFiles).sort());
    for (const row of rows) {
      const expected = fixtureFiles[row.key];
      assert.ok(expected !== undefined);
      assert.equal(row.sha256, expected.sha256);
      assert.equal(Number(row.size), expected.size);
      assert.equal(row.uploaded_by, null);
      const stream = await storage.open(row.key);
      assert.ok(stream !== undefined, `${row.key} is in the storage`);
      const bytes = await readAll(stream);
      assert.equal(bytes.byteLength, expected.size, row.key);
      assert.equal(sha256(bytes), expected.sha256, row.key);
    }

    // The site serves them, and what used them still does.
    const app = await buildApp({ config, db });
    cleanups.push(() => app.close());
    for (const [key, expected] of Object.entries(fixtureFiles)) {
      const res = await app.inject(`/v1/file/preview/${key}`);
      assert.equal(res.statusCode, 200, key);
      assert.equal(res.headers['content-type'], expected.type);
      assert.equal(sha256(res.rawPayload), expected.sha256, key);
    }
    const packages = (await app.inject('/v1/common/getInstallPackageAddrs')).json<{ DownloadURL: string }[]>();
    assert.match(packages[0]?.DownloadURL ?? '', /file\/preview\/c9ced2977a6532c4-app-5\.0\.0\.apk$/);
    // Running it again finds nothing to do.
    await migrate(db, storage);
    assert.equal((await doneMigrations(db)).length, knownMigrations.length);
  },
);

/** A database at the schema before the move, with `count` files of `size` bytes in it. */
async function oldDatabase(count: number, size: number): Promise<{ db: Db; files: Map<string, Buffer> }> {
  const database = await createTestDatabase();
  const config = loadConfig(testEnv(database));
  const db = connect(config.database);
  cleanups.push(async () => {
    await db.close();
    await database.drop();
  });
  await migrate(db, undefined, '0003_change_notices');
  const files = new Map<string, Buffer>();
  for (let index = 0; index < count; index++) {
    // The first file is empty: the old storeFile did not refuse one.
    const data = index === 0 ? Buffer.alloc(0) : randomBytes(size + index);
    const hash = sha256(data);
    const key = `${hash.slice(0, 16)}-file-${index}.zip`;
    files.set(key, data);
    await sql`
      INSERT INTO stored_files (key, name, content_type, size, sha256, data, created_at)
      VALUES (${key}, ${`file-${index}.zip`}, 'application/zip', ${data.byteLength}, ${hash}, ${data},
              ${new Date().toISOString()})`.execute(db.kysely);
  }
  return { db, files };
}

/** The configured storage, except that the commit of the `failAt`-th file fails. */
function failingStorage(storage: FileStorage, failAt: number): FileStorage {
  let commits = 0;
  return {
    description: storage.description,
    open: (key, range) => storage.open(key, range),
    stat: (key) => storage.stat(key),
    delete: (key) => storage.delete(key),
    check: () => storage.check(),
    anyKey: () => storage.anyKey(),
    close: () => storage.close(),
    stage: async (body, rules, contentType) => {
      const staged = await storage.stage(body, rules, contentType);
      return {
        ...staged,
        commit: async (key) => {
          if (++commits === failAt) {
            await staged.discard();
            throw new Error('the storage went away');
          }
          return staged.commit(key);
        },
      };
    },
  };
}

test(`on ${dialect}: interrupted half way it keeps every file inside; run again it completes`, async () => {
  const { db, files } = await oldDatabase(5, 70_000);
  const storage = storageFor(
    loadConfig(testEnv({ url: 'sqlite::memory:', ...(await storageEnv()), drop: async () => {} })).storage,
  );

  await assert.rejects(
    migrate(db, failingStorage(storage, 3)),
    /0004_files_outside_database failed: the storage went away/,
  );
  assert.ok((await columns(db)).includes('data'), 'the column is still there');
  assert.deepEqual(await doneMigrations(db), ['0001_initial', '0002_download_counts', '0003_change_notices']);
  const { rows } = await sql<{ n: number }>`select count(*) as n from stored_files where data is not null`.execute(
    db.kysely,
  );
  assert.equal(Number(rows[0]?.n), files.size);

  await migrate(db, storage);
  assert.ok(!(await columns(db)).includes('data'));
  for (const [key, data] of files) {
    const stream = await storage.open(key);
    assert.ok(stream !== undefined, key);
    assert.deepEqual(await readAll(stream), data, key);
  }
  await migrate(db, storage);
  assert.equal((await doneMigrations(db)).length, knownMigrations.length);
});

test(`on ${dialect}: a blob that does not match its SHA-256 stops the migration and nothing is dropped`, async () => {
  const { db } = await oldDatabase(2, 1000);
  await sql`UPDATE stored_files SET sha256 = ${'0'.repeat(64)} WHERE key = (SELECT min(key) FROM stored_files)`.execute(
    db.kysely,
  );
  const storage = storageFor(
    loadConfig(testEnv({ url: 'sqlite::memory:', ...(await storageEnv()), drop: async () => {} })).storage,
  );
  await assert.rejects(migrate(db, storage), /does not match its SHA-256/);
  assert.ok((await columns(db)).includes('data'));
});

test(`on ${dialect}: an old database with files and no storage given is refused, not emptied`, async () => {
  const { db } = await oldDatabase(1, 100);
  await assert.rejects(migrate(db), /needs the file storage/);
  assert.ok((await columns(db)).includes('data'));
});

async function storageEnv(): Promise<{ storageEnv: Record<string, string> }> {
  const files = await createTestStorage();
  cleanups.push(files.drop);
  return { storageEnv: files.env };
}
