/**
 * `backup` and `restore` (docs/backups.md), on the database the helpers pick and the
 * storage TEST_STORAGE names: a backup taken while announcements keep being published holds a
 * consistent prefix of them and every table and file, and restores into a new database and
 * storage that serve the same; a non-empty target and a damaged archive are refused and leave
 * nothing behind; a file deleted between the snapshot and its copy is left out and reported;
 * an archive moves between SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import tar from 'tar-stream';
import { buildApp } from '../src/app.js';
import type { Manifest } from '../src/backup/archive.js';
import { readCatalog, type AnyDb } from '../src/backup/catalog.js';
import { backup } from '../src/backup/export.js';
import { loadConfig } from '../src/config.js';
import { connect, type Db } from '../src/db/connect.js';
import { migrate } from '../src/db/migrations.js';
import { storageFor, type FileStorage } from '../src/storage/index.js';
import { bearer, cliPath, createTestDatabase, dialect, testEnv, type TestDatabase } from './helpers.js';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A database and storage with the app running on it, in-process. */
interface Site {
  database: TestDatabase;
  db: Db;
  app: Awaited<ReturnType<typeof buildApp>>;
  close(): Promise<void>;
}

async function openSite(database: TestDatabase): Promise<Site> {
  const config = loadConfig(testEnv(database));
  const db = connect(config.database);
  await migrate(db, storageFor(config.storage));
  const app = await buildApp({ config, db });
  await app.ready();
  return {
    database,
    db,
    app,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function admin(database: TestDatabase, args: string[]): Promise<Run> {
  const env = { ...process.env, ...testEnv(database) };
  return new Promise((done) =>
    execFile(process.execPath, [cliPath, ...args], { env }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      done({ code, stdout, stderr });
    }),
  );
}

async function post(site: Site, url: string, payload: unknown, type = 'application/json') {
  const res = await site.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer, 'content-type': type },
    payload: payload as string,
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<{ id?: number; key?: string; path?: string; sha256?: string }>();
}

/** Every row of every table, each table sorted, as JSON text. */
async function allRows(db: Db): Promise<Record<string, string[]>> {
  const kysely = db.kysely as unknown as AnyDb;
  const tables: Record<string, string[]> = {};
  for (const table of await readCatalog(kysely, db.dialect)) {
    const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table.name)}`.execute(kysely);
    tables[table.name] = rows.map((row) => JSON.stringify(row, Object.keys(row).sort())).sort();
  }
  return tables;
}

async function isEmpty(database: TestDatabase): Promise<void> {
  const config = loadConfig(testEnv(database));
  const db = connect(config.database);
  const storage = storageFor(config.storage);
  try {
    const rows = await allRows(db);
    for (const [table, list] of Object.entries(rows)) assert.deepEqual(list, [], `${table} has rows`);
    assert.equal(await storage.anyKey(), undefined, 'the storage holds a file');
  } finally {
    await db.close();
    await storage.close();
  }
}

/** The entries of an uncompressed tar: name, where the data starts, its size. */
function tarEntries(archive: Buffer): { name: string; offset: number; size: number }[] {
  const entries = [];
  for (let at = 0; at + 512 <= archive.length && archive[at] !== 0;) {
    const name = archive
      .subarray(at, at + 100)
      .toString('utf8')
      .replace(/\0.*$/s, '');
    const prefix = archive
      .subarray(at + 345, at + 500)
      .toString('utf8')
      .replace(/\0.*$/s, '');
    const size = Number.parseInt(
      archive
        .subarray(at + 124, at + 136)
        .toString('utf8')
        .replace(/\0.*$/s, ''),
      8,
    );
    entries.push({ name: prefix === '' ? name : `${prefix}/${name}`, offset: at + 512, size });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

function manifestOf(archive: Buffer): Manifest {
  const entry = tarEntries(archive)[0];
  assert.equal(entry?.name, 'manifest.json');
  return JSON.parse(archive.subarray(entry.offset, entry.offset + entry.size).toString('utf8')) as Manifest;
}

const work = mkdtempSync(join(tmpdir(), 'chat-site-backup-test-'));
const bigPackage = randomBytes(12 * 1024 * 1024);
Buffer.from([0x50, 0x4b, 3, 4]).copy(bigPackage);

let source: Site;
/** The archive of the live site (a .tar.gz), and what was published before and during it. */
let archive: string;
let published: { id: number; title: string }[] = [];
let restored: Site;
/** The restored database's rows, before any test writes to it. */
let restoredRows: Record<string, string[]>;

before(async () => {
  source = await openSite(await createTestDatabase());
  const image = await post(source, '/v1/admin/files?name=banner.png', png, 'image/png');
  const apk = await post(source, '/v1/admin/files?name=app-5.1.0.apk', bigPackage, 'application/octet-stream');
  const put = await source.app.inject({
    method: 'PUT',
    url: '/v1/admin/packages',
    headers: bearer,
    payload: [
      { OS: 'android', DownloadURL: apk.path, version: '5.1.0', released_at: '2026-11-01 10:00:00' },
      { OS: 'windows', DownloadURL: 'https://dl.example.com/setup.exe', version: '5.0.1' },
    ],
  });
  assert.equal(put.statusCode, 200, put.body);
  for (let i = 0; i < 5; i++) {
    const title = `before ${i}`;
    const { id } = await post(source, '/v1/admin/bulletins', {
      title,
      content: `<p>${title}</p><img src="${image.path}">`,
      topup: i === 0 ? 1 : 0,
      // End times travel with the announcement (docs/behaviour.md#announcements-that-stop-by-themselves).
      ...(i === 0 && { unpin_at: '2099-01-01 00:00:00', unpublish_at: '2099-06-01 00:00:00' }),
    });
    published.push({ id: id as number, title });
  }
  // The first one edited twice and restored: four revisions (docs/console.md#revisions).
  const first = published[0]?.id ?? 0;
  const edit = async (body: object) => {
    const res = await source.app.inject({
      method: 'PUT',
      url: `/v1/admin/bulletins/${first}`,
      headers: bearer,
      payload: body,
    });
    assert.equal(res.statusCode, 200, res.body);
  };
  await edit({ title: 'before 0, edited', version: 1 });
  await edit({ content: '<p>edited again</p>', version: 2 });
  const oldest = await source.db.kysely
    .selectFrom('bulletin_revisions')
    .select('id')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const back = await source.app.inject({
    method: 'POST',
    url: `/v1/admin/bulletins/${first}/revisions/${oldest.id}/restore`,
    headers: bearer,
    payload: { version: 3 },
  });
  assert.equal(back.statusCode, 200, back.body);
  // Publishing goes on, one announcement after another, for as long as the backup runs.
  archive = join(work, 'live.tar.gz');
  let running = true;
  const writer = (async () => {
    for (let i = 0; running; i++) {
      const title = `during ${i}`;
      const { id } = await post(source, '/v1/admin/bulletins', { title, content: `<p>${title}</p>` });
      published.push({ id: id as number, title });
    }
  })();
  const made = await admin(source.database, ['backup', '--to', archive]);
  running = false;
  await writer;
  assert.equal(made.code, 0, made.stderr);
  assert.equal(made.stderr, '');
  assert.match(made.stdout, /files +2/);
  published = published.sort((a, b) => a.id - b.id);

  const target = await createTestDatabase();
  const loaded = await admin(target, ['restore', '--from', archive]);
  assert.equal(loaded.code, 0, loaded.stderr);
  restored = await openSite(target);
  restoredRows = await allRows(restored.db);
});

after(async () => {
  await restored?.close();
  await restored?.database.drop();
  await source?.close();
  await source?.database.drop();
  rmSync(work, { recursive: true, force: true });
});

describe(`backup and restore (${dialect})`, () => {
  test('the archive holds every table of the database, and no temporary file is left', async () => {
    const { execFileSync } = await import('node:child_process');
    const names = execFileSync('tar', ['-tzf', archive], { encoding: 'utf8' }).trim().split('\n');
    assert.equal(names[0], 'manifest.json');
    const tables = (await readCatalog(source.db.kysely as unknown as AnyDb, source.db.dialect)).map((t) => t.name);
    assert.ok(tables.includes('bulletins') && tables.includes('stored_files'));
    for (const table of tables) assert.ok(names.includes(`tables/${table}.jsonl`), `${table} is missing`);
    assert.equal(names.filter((name) => name.startsWith('files/')).length, 2);
    assert.throws(() => statSync(`${archive}.tmp`));
  });

  test('the restored announcements are a prefix of those published, each as it was', async (t) => {
    const rows = await restored.db.kysely.selectFrom('bulletins').selectAll().orderBy('id').execute();
    const titles = rows.map((row) => row.title);
    // The writer was publishing while the backup ran.
    assert.ok(published.some((entry) => entry.title.startsWith('during')));
    // Everything published before the backup, then the live ones in order, with no gap.
    assert.ok(rows.length >= 5, `only ${rows.length} announcements`);
    assert.deepEqual(
      titles,
      published.slice(0, rows.length).map((entry) => entry.title),
    );
    assert.ok(rows[0]?.unpin_at !== null && rows[0]?.unpublish_at !== null, 'the end times are restored');
    const originals = await source.db.kysely
      .selectFrom('bulletins')
      .selectAll()
      .where('id', '<=', rows.at(-1)?.id ?? 0)
      .orderBy('id')
      .execute();
    assert.deepEqual(rows, originals);
    t.diagnostic(`${rows.length} of the ${published.length} announcements published are in the snapshot`);
  });

  test('every row the snapshot holds is in the restored database as it was', async () => {
    const before = await allRows(source.db);
    const after = await allRows(restored.db);
    assert.deepEqual(Object.keys(after), Object.keys(before));
    for (const [table, rows] of Object.entries(after)) {
      const original = new Set(before[table]);
      for (const row of rows) assert.ok(original.has(row), `${table} row not in the source: ${row}`);
    }
    for (const table of ['install_packages', 'settings', 'stored_files']) {
      assert.deepEqual(after[table], before[table], table);
    }
  });

  test('revisions come back with their announcements, and the restored site goes on keeping them', async () => {
    const first = published[0]?.id ?? 0;
    const revisionsOf = (site: Site) =>
      site.db.kysely
        .selectFrom('bulletin_revisions')
        .selectAll()
        .where('bulletin_id', '=', first)
        .orderBy('id')
        .execute();
    const kept = await revisionsOf(restored);
    assert.deepEqual(
      kept.map((row) => row.action),
      ['create', 'update', 'update', 'restore'],
    );
    assert.deepEqual(kept, await revisionsOf(source));
    const listed = await restored.app.inject({ url: `/v1/admin/bulletins/${first}/revisions`, headers: bearer });
    assert.equal(listed.json<{ list: unknown[] }>().list.length, 4);
    const top = Math.max(
      ...(restoredRows.bulletin_revisions ?? []).map((row) => (JSON.parse(row) as { id: number }).id),
    );
    const { id } = await post(restored, '/v1/admin/bulletins', { title: 'revised after', content: '<p>x</p>' });
    const made = await restored.db.kysely
      .selectFrom('bulletin_revisions')
      .select('id')
      .where('bulletin_id', '=', id as number)
      .execute();
    assert.ok((made[0]?.id ?? 0) > top, 'a new revision gets an id no restored one has');
    await restored.app.inject({ method: 'DELETE', url: `/v1/admin/bulletins/${id}`, headers: bearer });
  });

  test('the restored site serves the same packages and files, byte for byte', async () => {
    for (const url of ['/v1/common/getInstallPackageAddrs', '/v1/common/getAppConfig']) {
      const [a, b] = await Promise.all([source.app.inject(url), restored.app.inject(url)]);
      assert.equal(b.statusCode, a.statusCode);
      assert.deepEqual(b.json(), a.json(), url);
    }
    const files = await restored.db.kysely.selectFrom('stored_files').selectAll().execute();
    assert.equal(files.length, 2);
    for (const file of files) {
      const res = await restored.app.inject(`/v1/file/preview/${file.key}`);
      assert.equal(res.statusCode, 200);
      assert.equal(sha256(res.rawPayload), file.sha256);
    }
    assert.ok(files.some((file) => file.sha256 === sha256(bigPackage)));
  });

  test('a new announcement on the restored site gets an id no restored one has', async () => {
    const top = await restored.db.kysely
      .selectFrom('bulletins')
      .select((eb) => eb.fn.max('id').as('top'))
      .executeTakeFirstOrThrow();
    const { id } = await post(restored, '/v1/admin/bulletins', { title: 'after', content: '<p>after</p>' });
    assert.ok((id as number) > Number(top.top));
    await restored.app.inject({ method: 'DELETE', url: `/v1/admin/bulletins/${id}`, headers: bearer });
  });

  test('restore into a non-empty database is refused and changes nothing', async () => {
    const before = await allRows(source.db);
    const refused = await admin(source.database, ['restore', '--from', archive]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /^error: the database is not empty \(rows in [a-z_, ]*bulletins/);
    assert.deepEqual(await allRows(source.db), before);
  });

  test('restore into an empty database but a storage with files is refused', async () => {
    const target = await createTestDatabase();
    try {
      const refused = await admin({ ...target, storageEnv: source.database.storageEnv }, [
        'restore',
        '--from',
        archive,
      ]);
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /^error: the file storage .* is not empty \(it holds [0-9a-f]{16}-/);
      await isEmpty(target);
    } finally {
      await target.drop();
    }
  });

  test('a truncated archive is refused and leaves the target empty', async () => {
    const cut = join(work, 'cut.tar.gz');
    writeFileSync(cut, readFileSync(archive));
    truncateSync(cut, Math.floor(statSync(cut).size * 0.8));
    const target = await createTestDatabase();
    try {
      const refused = await admin(target, ['restore', '--from', cut]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /^error: the archive .* is refused: it is (damaged or )?cut short/);
      await isEmpty(target);
    } finally {
      await target.drop();
    }
  });

  test('an archive whose file does not match its SHA-256 is refused and leaves the target empty', async () => {
    const plain = join(work, 'plain.tar');
    const made = await admin(source.database, ['backup', '--to', plain]);
    assert.equal(made.code, 0, made.stderr);
    const bytes = readFileSync(plain);
    // The last file: the ones before it are already in the storage when the damage is found.
    const last = tarEntries(bytes).at(-1);
    assert.ok(last !== undefined && last.name.startsWith('files/'));
    const at = last.offset + Math.floor(last.size / 2);
    bytes.writeUInt8(bytes.readUInt8(at) ^ 0xff, at);
    writeFileSync(plain, bytes);
    const target = await createTestDatabase();
    try {
      const refused = await admin(target, ['restore', '--from', plain]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, new RegExp(`${last.name} does not match its SHA-256`));
      await isEmpty(target);
    } finally {
      await target.drop();
    }
  });

  test('an archive from another dialect restores the same rows', { skip: dialect === 'sqlite' }, async () => {
    // PostgreSQL to SQLite, then that SQLite back into a new PostgreSQL database.
    const dir = mkdtempSync(join(tmpdir(), 'chat-site-backup-sqlite-'));
    const sqliteTarget: TestDatabase = {
      url: `sqlite:${join(dir, 'site.db')}`,
      storageEnv: { STORAGE_URL: `file:${join(dir, 'files')}` },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
    const postgresTarget = await createTestDatabase();
    try {
      const toSqlite = await admin(sqliteTarget, ['restore', '--from', archive]);
      assert.equal(toSqlite.code, 0, toSqlite.stderr);
      const again = join(work, 'from-sqlite.tar');
      assert.equal((await admin(sqliteTarget, ['backup', '--to', again])).code, 0);
      const back = await admin(postgresTarget, ['restore', '--from', again]);
      assert.equal(back.code, 0, back.stderr);
      const there = await openSite(postgresTarget);
      try {
        assert.deepEqual(await allRows(there.db), restoredRows);
      } finally {
        await there.close();
      }
    } finally {
      await sqliteTarget.drop();
      await postgresTarget.drop();
    }
  });
});

describe('backup while files are deleted', () => {
  test('a file deleted between the snapshot and its copy is left out with its row, and reported', async () => {
    const site = await openSite(await createTestDatabase());
    try {
      const kept = await post(site, '/v1/admin/files?name=kept.png', png, 'image/png');
      const gone = await post(site, '/v1/admin/files?name=gone.apk', bigPackage, 'application/octet-stream');
      const config = loadConfig(testEnv(site.database));
      const storage = storageFor(config.storage);
      const warnings: string[] = [];
      const to = join(work, 'deleted.tar');
      const summary = await backup({
        db: site.db,
        storage,
        to,
        warn: (message) => warnings.push(message),
        afterSnapshot: async () => {
          const res = await site.app.inject({ method: 'DELETE', url: `/v1/admin/files/${gone.key}`, headers: bearer });
          assert.equal(res.statusCode, 204, res.body);
        },
      });
      assert.deepEqual(
        summary.manifest.files.map((file) => file.key),
        [kept.key],
      );
      assert.deepEqual(
        summary.manifest.skipped_files.map((file) => file.key),
        [gone.key],
      );
      assert.equal(warnings.length, 1);
      assert.match(warnings[0] ?? '', new RegExp(`${gone.key} was deleted from .* after the snapshot`));
      assert.equal(summary.manifest.tables.stored_files?.rows, 1);
      assert.deepEqual(manifestOf(readFileSync(to)), summary.manifest);

      const target = await createTestDatabase();
      try {
        const loaded = await admin(target, ['restore', '--from', to]);
        assert.equal(loaded.code, 0, loaded.stderr);
      } finally {
        await target.drop();
      }
    } finally {
      await site.close();
      await site.database.drop();
    }
  });

  test('a file that vanishes as it is being copied starts the backup again from a new snapshot', async () => {
    const site = await openSite(await createTestDatabase());
    try {
      const file = await post(site, '/v1/admin/files?name=flaky.png', png, 'image/png');
      const storage = storageFor(loadConfig(testEnv(site.database)).storage);
      // The storage answers "no such file" once, after the check that found it: as if it were
      // deleted in that moment.
      let opens = 0;
      const flaky: FileStorage = {
        description: storage.description,
        stage: (...args) => storage.stage(...args),
        stat: (key) => storage.stat(key),
        delete: (key) => storage.delete(key),
        anyKey: () => storage.anyKey(),
        check: () => storage.check(),
        close: () => storage.close(),
        open: async (key, range) => (++opens === 1 ? undefined : storage.open(key, range)),
      };
      const warnings: string[] = [];
      const to = join(work, 'flaky.tar');
      const summary = await backup({ db: site.db, storage: flaky, to, warn: (message) => warnings.push(message) });
      assert.equal(opens, 2);
      assert.deepEqual(warnings, [
        `hosted file ${file.key} was deleted from ${storage.description} while it was copied; starting again from a new snapshot`,
      ]);
      assert.deepEqual(
        summary.manifest.files.map((entry) => entry.key),
        [file.key],
      );
      assert.ok(tarEntries(readFileSync(to)).some((entry) => entry.name === `files/${file.key}`));
    } finally {
      await site.close();
      await site.database.drop();
    }
  });

  test('a stored file that differs from its row stops the backup and leaves no archive', async () => {
    const site = await openSite(await createTestDatabase());
    try {
      const file = await post(site, '/v1/admin/files?name=rotten.png', png, 'image/png');
      const storage = storageFor(loadConfig(testEnv(site.database)).storage);
      // The storage hands back as many bytes as were stored, but not the same ones.
      const rotten: FileStorage = {
        description: storage.description,
        stage: (...args) => storage.stage(...args),
        stat: (key) => storage.stat(key),
        delete: (key) => storage.delete(key),
        anyKey: () => storage.anyKey(),
        check: () => storage.check(),
        close: () => storage.close(),
        open: async () => Readable.from([Buffer.alloc(png.byteLength)]),
      };
      const to = join(work, 'rotten.tar');
      await assert.rejects(
        backup({ db: site.db, storage: rotten, to }),
        new RegExp(`hosted file ${file.key} in .* does not match the SHA-256 recorded for it`),
      );
      assert.throws(() => statSync(to));
      assert.throws(() => statSync(`${to}.tmp`));
    } finally {
      await site.close();
      await site.database.drop();
    }
  });

  test('a table no migration of this build made is in the archive too', async () => {
    const site = await openSite(await createTestDatabase());
    try {
      // As another branch's migration might add one.
      await sql`CREATE TABLE release_history (id integer PRIMARY KEY, os text NOT NULL, note text)`.execute(
        site.db.kysely,
      );
      await sql`INSERT INTO release_history (id, os, note) VALUES (1, 'android', 'first'), (2, 'ios', NULL)`.execute(
        site.db.kysely,
      );
      const to = join(work, 'extra.tar');
      const made = await admin(site.database, ['backup', '--to', to]);
      assert.equal(made.code, 0, made.stderr);
      const bytes = readFileSync(to);
      const entry = tarEntries(bytes).find((candidate) => candidate.name === 'tables/release_history.jsonl');
      assert.ok(entry !== undefined);
      const lines = bytes
        .subarray(entry.offset, entry.offset + entry.size)
        .toString('utf8')
        .trim()
        .split('\n');
      assert.deepEqual(
        lines.map((line) => JSON.parse(line) as unknown),
        [
          { id: 1, os: 'android', note: 'first' },
          { id: 2, os: 'ios', note: null },
        ],
      );
      assert.equal(manifestOf(bytes).tables.release_history?.rows, 2);
    } finally {
      await site.close();
      await site.database.drop();
    }
  });
});

/** A table with the types the schema does not use yet, in the dialect's own spelling. */
function createKindsTable(db: Db) {
  const [blob, flag, time] =
    db.dialect === 'postgres' ? ['bytea', 'boolean', 'timestamptz'] : ['blob', 'integer', 'text'];
  return sql`CREATE TABLE kinds (id integer PRIMARY KEY, data ${sql.raw(blob)}, flag ${sql.raw(flag)},
    at ${sql.raw(time)})`.execute(db.kysely);
}

describe('column types', () => {
  test('bytes, booleans and times come back as they were, in this dialect and the other', async (t) => {
    const site = await openSite(await createTestDatabase());
    const bytes = randomBytes(300);
    const at = '2026-03-04T05:06:07.089Z';
    const dir = mkdtempSync(join(tmpdir(), 'chat-site-backup-kinds-'));
    const targets: TestDatabase[] = [await createTestDatabase()];
    if (dialect === 'postgres') {
      targets.push({
        url: `sqlite:${join(dir, 'site.db')}`,
        storageEnv: { STORAGE_URL: `file:${join(dir, 'files')}` },
        drop: async () => undefined,
      });
    }
    try {
      await createKindsTable(site.db);
      const flag = site.db.dialect === 'postgres' ? true : 1;
      await sql`INSERT INTO kinds (id, data, flag, at) VALUES (1, ${bytes}, ${flag}, ${at}), (2, NULL, NULL, NULL)`.execute(
        site.db.kysely,
      );
      const to = join(work, 'kinds.tar');
      const made = await admin(site.database, ['backup', '--to', to]);
      assert.equal(made.code, 0, made.stderr);
      for (const target of targets) {
        // The table exists in the target as the migration that made it would have made it.
        const there = await openSite(target);
        await createKindsTable(there.db);
        const loaded = await admin(target, ['restore', '--from', to]);
        assert.equal(loaded.code, 0, loaded.stderr);
        const { rows } = await sql<{ id: number; data: Uint8Array | null; flag: unknown; at: unknown }>`
          SELECT * FROM kinds ORDER BY id`.execute(there.db.kysely);
        t.diagnostic(`${site.db.dialect} to ${there.db.dialect}`);
        assert.deepEqual(Buffer.from(rows[0]?.data ?? []), bytes);
        assert.equal(rows[0]?.flag, there.db.dialect === 'postgres' ? true : 1);
        const time = rows[0]?.at;
        assert.equal(time instanceof Date ? time.toISOString() : time, at);
        assert.deepEqual([rows[1]?.data, rows[1]?.flag, rows[1]?.at], [null, null, null]);
        await there.close();
      }
    } finally {
      await site.close();
      await site.database.drop();
      for (const target of targets) await target.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the command line', () => {
  test('--help lists backup and restore, and each explains itself', async () => {
    const database = await createTestDatabase();
    try {
      const program = await admin(database, ['--help']);
      assert.match(program.stdout, /\n {2}backup \[options\] +write the database and every hosted file/);
      assert.match(program.stdout, /\n {2}restore \[options\] +load an archive/);
      const made = await admin(database, ['backup', '--help']);
      assert.equal(made.code, 0);
      assert.match(made.stdout, /--to <file>/);
      assert.match(made.stdout, /from cron/);
      const loaded = await admin(database, ['restore', '--help']);
      assert.equal(loaded.code, 0);
      assert.match(loaded.stdout, /--from <file>/);
      assert.match(loaded.stdout, /SQLite to PostgreSQL/);
    } finally {
      await database.drop();
    }
  });

  test('restore without an archive, or with one that is no file, is a usage error that writes nothing', async () => {
    const database = await createTestDatabase();
    try {
      const bare = await admin(database, ['restore']);
      assert.equal(bare.code, 2);
      assert.match(bare.stderr, /--from <file>/);
      const missing = await admin(database, ['restore', '--from', join(work, 'no-such.tar')]);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /^error: cannot read .*no-such\.tar/);
      const junk = join(work, 'junk.tar');
      writeFileSync(junk, randomBytes(4096));
      const refused = await admin(database, ['restore', '--from', junk]);
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /^error: the archive .*junk\.tar is refused: /);
      await isEmpty(database);
    } finally {
      await database.drop();
    }
  });
});

/** A copy of an uncompressed archive with its manifest changed by `edit`. */
async function withManifest(
  from: string,
  to: string,
  edit: (manifest: Manifest) => void,
  rewrite = (text: string) => text,
): Promise<void> {
  const bytes = readFileSync(from);
  const entries = tarEntries(bytes);
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (chunk) => chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve) => pack.on('end', () => resolve()));
  for (const entry of entries) {
    let data = bytes.subarray(entry.offset, entry.offset + entry.size);
    if (entry.name === 'manifest.json') {
      const manifest = JSON.parse(data.toString('utf8')) as Manifest;
      edit(manifest);
      data = Buffer.from(rewrite(JSON.stringify(manifest)));
    }
    pack.entry({ name: entry.name, size: data.byteLength }, data);
  }
  pack.finalize();
  await ended;
  writeFileSync(to, Buffer.concat(chunks));
}

describe('schemas of other builds', () => {
  test('an archive of an older schema is loaded at its own migrations, then brought up to date', async () => {
    const database = await createTestDatabase();
    const config = loadConfig(testEnv(database));
    const db = connect(config.database);
    const storage = storageFor(config.storage);
    const target = await createTestDatabase();
    try {
      // A database as the build before drafts (0006) left it.
      await migrate(db, storage, '0005_accounts');
      await sql`INSERT INTO bulletins (title, content, pinned, created_at, updated_at)
        VALUES ('old', '<p>old</p>', 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`.execute(db.kysely);
      const to = join(work, 'old-schema.tar');
      const { manifest } = await backup({ db, storage, to });
      assert.equal(manifest.migrations.at(-1), '0005_accounts');
      assert.deepEqual(manifest.tables.bulletins?.columns, [
        'id',
        'title',
        'content',
        'pinned',
        'created_at',
        'updated_at',
      ]);
      const loaded = await admin(target, ['restore', '--from', to]);
      assert.equal(loaded.code, 0, loaded.stderr);
      const site = await openSite(target);
      try {
        const rows = await site.db.kysely.selectFrom('bulletins').selectAll().execute();
        assert.equal(rows.length, 1);
        assert.equal(rows[0]?.title, 'old');
        assert.equal(rows[0]?.state, 'published');
        assert.equal(rows[0]?.version, 1);
        assert.equal(rows[0]?.content_text, 'old', 'the body text is searchable after the restore');
        const list = await site.app.inject('/v1/bulletin/page?page_index=1&page_size=10');
        assert.match(list.body, /"old"/);
      } finally {
        await site.close();
      }
    } finally {
      await db.close();
      await storage.close();
      await database.drop();
      await target.drop();
    }
  });

  test('a manifest naming a table or a file outside its place is refused before anything is written', async () => {
    const plain = join(work, 'names.tar');
    assert.equal((await admin(source.database, ['backup', '--to', plain])).code, 0);
    const badTable = join(work, 'bad-table.tar');
    await withManifest(plain, badTable, (manifest) => {
      manifest.tables['../../escape'] = { rows: 0, sha256: '', columns: [] };
    });
    const badKey = join(work, 'bad-key.tar');
    await withManifest(plain, badKey, (manifest) => {
      const first = manifest.files[0];
      if (first !== undefined) first.key = '../escape';
    });
    const target = await createTestDatabase();
    try {
      const table = await admin(target, ['restore', '--from', badTable]);
      assert.equal(table.code, 2);
      assert.match(table.stderr, /manifest\.json names a table "\.\.\/\.\.\/escape"/);
      const key = await admin(target, ['restore', '--from', badKey]);
      assert.equal(key.code, 2);
      assert.match(key.stderr, /manifest\.json names a file "\.\.\/escape"/);
      await isEmpty(target);
    } finally {
      await target.drop();
    }
  });

  test('a manifest whose fields have the wrong type or range is refused, naming the field', async () => {
    const plain = join(work, 'types.tar');
    assert.equal((await admin(source.database, ['backup', '--to', plain])).code, 0);
    type Edit = (manifest: Manifest & Record<string, unknown>) => void;
    const table = (manifest: Manifest) => manifest.tables.bulletins as unknown as Record<string, unknown>;
    const file = (manifest: Manifest) => manifest.files[0] as unknown as Record<string, unknown>;
    const cases: [string, Edit, RegExp, ((text: string) => string)?][] = [
      [
        'next-id-huge',
        (m) => void (table(m).next_id = 424242),
        /manifest\.json \/tables\/bulletins\/next_id: /,
        (text) => text.replace('424242', '9223372036854775807'),
      ],
      ['next-id-string', (m) => void (table(m).next_id = '5'), /manifest\.json \/tables\/bulletins\/next_id: /],
      ['next-id-zero', (m) => void (table(m).next_id = 0), /manifest\.json \/tables\/bulletins\/next_id: /],
      ['next-id-fraction', (m) => void (table(m).next_id = 7.5), /manifest\.json \/tables\/bulletins\/next_id: /],
      ['columns-string', (m) => void (table(m).columns = 'id,title'), /manifest\.json \/tables\/bulletins\/columns: /],
      ['column-name', (m) => void (table(m).columns = ['id', 'x"; drop']), /\/tables\/bulletins\/columns\/1: /],
      ['rows-negative', (m) => void (table(m).rows = -1), /manifest\.json \/tables\/bulletins\/rows: /],
      ['sha-number', (m) => void (table(m).sha256 = 1), /manifest\.json \/tables\/bulletins\/sha256: /],
      ['size-string', (m) => void (file(m).size = '12'), /manifest\.json \/files\/0\/size: /],
      ['dialect', (m) => void (m.source_dialect = 'mysql'), /manifest\.json \/source_dialect: /],
      ['migration', (m) => void ((m.migrations as unknown[])[0] = 7), /manifest\.json \/migrations\/0: /],
      ['skipped', (m) => void (m.skipped_files = 'none' as never), /manifest\.json \/skipped_files: /],
    ];
    const target = await createTestDatabase();
    try {
      for (const [name, edit, message, rewrite] of cases) {
        const edited = join(work, `${name}.tar`);
        await withManifest(plain, edited, edit as (manifest: Manifest) => void, rewrite);
        const run = await admin(target, ['restore', '--from', edited]);
        assert.equal(run.code, 2, `${name}: ${run.stderr}`);
        assert.match(run.stderr, message, name);
      }
      await isEmpty(target);
    } finally {
      await target.drop();
    }
  });

  test('an archive of a newer build is refused, and so is a database a newer build already migrated', async () => {
    const plain = join(work, 'schema.tar');
    assert.equal((await admin(source.database, ['backup', '--to', plain])).code, 0);
    const future = join(work, 'future.tar');
    await withManifest(plain, future, (manifest) => manifest.migrations.push('9999_release_history'));
    const older = join(work, 'older.tar');
    await withManifest(plain, older, (manifest) => manifest.migrations.pop());
    const target = await createTestDatabase();
    try {
      const refused = await admin(target, ['restore', '--from', future]);
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /^error: the archive was made by a newer build \(migrations 9999_release_history/);
      await isEmpty(target);
      // A server of this build started on the target first: its schema is ahead of the archive's.
      const site = await openSite(target);
      await site.close();
      const ahead = await admin(target, ['restore', '--from', older]);
      assert.equal(ahead.code, 2);
      assert.match(ahead.stderr, /^error: the database has run migrations the archive has not/);
      await isEmpty(target);
    } finally {
      await target.drop();
    }
  });
});
