/**
 * Migration 0009 gives the files hosted before it their SHA-512, streaming each from the file
 * storage once (docs/releases.md#update-checks); a file the storage lost keeps none. On
 * SQLite, and on PostgreSQL with TEST_POSTGRES_URL; on the directory store, or S3 with
 * TEST_STORAGE=s3.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { connect } from '../src/db/connect.js';
import { migrate } from '../src/db/migrations.js';
import { bytesBody, storeFile } from '../src/files/repository.js';
import { storageFor } from '../src/storage/index.js';
import { createTestDatabase, testEnv } from './helpers.js';

test('files stored before 0009 get the SHA-512 of their bytes; one the storage lost, once uploaded again', async () => {
  const database = await createTestDatabase();
  const config = loadConfig(testEnv(database));
  const db = connect(config.database);
  const storage = storageFor(config.storage);
  try {
    await migrate(db, storage, '0007_releases');
    const gone = Buffer.from('a disk image the storage lost');
    const goneKey = `${createHash('sha256').update(gone).digest('hex').slice(0, 16)}-gone.dmg`;
    const files = {
      'aaaaaaaaaaaaaaaa-app.exe': Buffer.alloc(300_000, 'MZ'),
      [goneKey]: gone,
    };
    for (const [key, bytes] of Object.entries(files)) {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      await sql`insert into stored_files (key, name, content_type, size, sha256, created_at)
        values (${key}, ${key}, 'application/octet-stream', ${bytes.length}, ${sha256}, '2026-01-01T00:00:00.000Z')`.execute(
        db.kysely,
      );
      if (key.endsWith('app.exe')) {
        const staged = await storage.stage(bytesBody(bytes), { maxBytes: 1e7 }, 'application/octet-stream');
        await staged.commit(key);
      }
    }
    await migrate(db, storage);
    const rows = await db.kysely.selectFrom('stored_files').select(['key', 'sha512']).orderBy('key').execute();
    assert.deepEqual(rows, [
      {
        key: 'aaaaaaaaaaaaaaaa-app.exe',
        sha512: createHash('sha512').update(files['aaaaaaaaaaaaaaaa-app.exe']).digest('base64'),
      },
      { key: goneKey, sha512: null },
    ]);
    // The lost file uploaded again gets its SHA-512.
    await storeFile(db.kysely, storage, {
      name: 'gone.dmg',
      contentType: 'application/octet-stream',
      body: bytesBody(gone),
      rules: { maxBytes: 1e7 },
      uploadedBy: 'cli',
    });
    const again = await db.kysely
      .selectFrom('stored_files')
      .select('sha512')
      .where('key', '=', goneKey)
      .executeTakeFirst();
    assert.equal(again?.sha512, createHash('sha512').update(gone).digest('base64'));
  } finally {
    await db.close();
    await storage.close();
    await database.drop();
  }
});
