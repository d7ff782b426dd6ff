/**
 * What the server writes to disk is its user's alone, whatever the umask
 * (docs/backups.md#file-permissions): the SQLite database with its -wal and -shm, the
 * directory store's hosted files and folders, and backup archives. Run with umask 022, the usual
 * default, under which files are made world-readable. Backups on SQLite, and on PostgreSQL with
 * TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, test } from 'node:test';
import { backup } from '../src/backup/export.js';
import { connect } from '../src/db/connect.js';
import { migrate } from '../src/db/migrations.js';
import { storageFor } from '../src/storage/index.js';
import { bearer, dialect, spawnServer, startTestApp, storageKind, testEnv, type TestApp } from './helpers.js';

const modeOf = (path: string) => statSync(path).mode & 0o777;
const work = mkdtempSync(join(tmpdir(), 'chat-site-modes-'));
let previousUmask: number;
let t: TestApp;

before(async () => {
  previousUmask = process.umask(0o022);
  t = await startTestApp();
});
after(async () => {
  await t.close();
  process.umask(previousUmask);
  rmSync(work, { recursive: true, force: true });
});

test('a new SQLite database, its folder, -wal and -shm are 0600 and 0700', { skip: dialect !== 'sqlite' }, async () => {
  const path = join(work, 'new/data/site.db');
  const db = connect({ kind: 'sqlite', path });
  try {
    await migrate(db, storageFor({ kind: 'file', dir: join(work, 'new/files') }));
    for (const file of [path, `${path}-wal`, `${path}-shm`]) {
      assert.ok(existsSync(file), file);
      assert.equal(modeOf(file).toString(8), '600', file);
    }
    assert.equal(modeOf(join(work, 'new/data')).toString(8), '700');
    assert.equal(modeOf(join(work, 'new')).toString(8), '700');
  } finally {
    await db.close();
  }
});

test(
  'a database an earlier build left world-readable is closed to others when opened',
  { skip: dialect !== 'sqlite' },
  async () => {
    const path = join(work, 'old.db');
    writeFileSync(path, '');
    chmodSync(path, 0o644);
    const db = connect({ kind: 'sqlite', path });
    try {
      await migrate(db, storageFor({ kind: 'file', dir: join(work, 'old-files') }));
      assert.equal(modeOf(path).toString(8), '600');
      assert.equal(modeOf(`${path}-wal`).toString(8), '600');
    } finally {
      await db.close();
    }
  },
);

test(
  'hosted files in the directory store are 0600, its new folder 0700',
  { skip: storageKind !== 'file' },
  async () => {
    const dir = join(work, 'store/files');
    const storage = storageFor({ kind: 'file', dir });
    const staged = await storage.stage(Readable.from([Buffer.from('hello')]), { maxBytes: 100 }, 'text/plain');
    await staged.commit('0123456789abcdef-hello.txt');
    assert.equal(modeOf(join(dir, '0123456789abcdef-hello.txt')).toString(8), '600');
    assert.equal(modeOf(dir).toString(8), '700');
    assert.equal(modeOf(join(work, 'store')).toString(8), '700');

    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/files?name=note.png',
      headers: { ...bearer, 'content-type': 'image/png' },
      payload: Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
        'base64',
      ),
    });
    assert.equal(res.statusCode, 201, res.body);
    const stored = t.config.storage.kind === 'file' ? join(t.config.storage.dir, res.json<{ key: string }>().key) : '';
    assert.equal(modeOf(stored).toString(8), '600');
  },
);

test('a backup archive is 0600, even over a world-readable .tmp left by an earlier run', async () => {
  const to = join(work, 'site.tar.gz');
  writeFileSync(`${to}.tmp`, '');
  chmodSync(`${to}.tmp`, 0o644);
  await backup({ db: t.db, storage: storageFor(t.config.storage), to, warn: () => undefined });
  assert.equal(modeOf(to).toString(8), '600');
});

test('the resumable uploads’ staging folder is 0700 and a staged upload and its record 0600', async () => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/uploads',
    headers: {
      ...bearer,
      'tus-resumable': '1.0.0',
      'upload-length': '10',
      'upload-metadata': `filename ${Buffer.from('app.apk').toString('base64')}`,
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  const id = String(res.headers.location).split('/').pop() ?? '';
  assert.equal(modeOf(t.config.uploadDir).toString(8), '700');
  assert.equal(modeOf(join(t.config.uploadDir, id)).toString(8), '600');
  assert.equal(modeOf(join(t.config.uploadDir, `${id}.json`)).toString(8), '600');
});

test('every entry of a backup archive is 0600', async () => {
  const to = join(work, 'entries.tar');
  await backup({ db: t.db, storage: storageFor(t.config.storage), to, warn: () => undefined });
  const archive = readFileSync(to);
  const modes = [];
  for (let at = 0; at + 512 <= archive.length && archive[at] !== 0;) {
    const field = (start: number, length: number) =>
      archive
        .subarray(at + start, at + start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '')
        .trim();
    modes.push(`${field(0, 100)} ${Number.parseInt(field(100, 8), 8).toString(8)}`);
    at += 512 + Math.ceil(Number.parseInt(field(124, 12), 8) / 512) * 512;
  }
  assert.ok(modes.length > 3);
  for (const mode of modes) assert.match(mode, / 600$/);
});

test(
  'a start closes to others the staged uploads and hosted files an older build left readable',
  { skip: storageKind !== 'file' || dialect !== 'sqlite' },
  async () => {
    const dir = join(work, 'older');
    const files = join(dir, 'files');
    const uploads = join(dir, 'uploads');
    for (const folder of [files, uploads]) {
      mkdirSync(folder, { recursive: true });
      chmodSync(folder, 0o755);
      writeFileSync(join(folder, 'left-by-an-older-build'), 'x');
      chmodSync(join(folder, 'left-by-an-older-build'), 0o644);
    }
    const database = { url: `sqlite:${join(dir, 'site.db')}`, drop: async () => undefined };
    const server = await spawnServer(testEnv(database, { STORAGE_URL: `file:${files}`, UPLOAD_DIR: uploads }));
    try {
      for (const folder of [files, uploads]) {
        assert.equal(modeOf(folder).toString(8), '700');
        assert.equal(modeOf(join(folder, 'left-by-an-older-build')).toString(8), '600');
        await server.logged(`made 2 files and folders in ${folder} readable by the server's user only`);
      }
    } finally {
      await server.stop();
    }
  },
);
