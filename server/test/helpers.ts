/**
 * Test fixtures: a fresh real database per test file (a SQLite file, or a new database on the
 * throwaway PostgreSQL cluster when TEST_POSTGRES_URL is set: testing/test-database.ts),
 * the app in-process, and the real built server as a child process.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type BuildOptions } from '../src/app.js';
import { loadConfig, type ServerConfig } from '../src/config.js';
import { connect, type Db } from '../src/db/connect.js';
import { migrate } from '../src/db/migrations.js';
import { loadDemoContent } from '../src/demo/load.js';
import { storageFor } from '../src/storage/index.js';
import { s3Env, startTestS3 } from '../../testing/s3-server.js';
import { repoRoot } from '../../testing/repo-root.js';
import { createDatabase, testDialect, type TestDatabase as Database } from '../../testing/test-database.js';

export { repoRoot };
export { spawnServer, type ServerProcess } from '../../testing/spawn-server.js';
/** The operator's command line as it ships: bundled into one file (scripts/bundle-admin.mjs). */
export const cliPath = join(repoRoot, 'server/dist/admin.js');
export const adminToken = 'test-admin-token-0123456789abcdefghij';
export const dialect = testDialect;
/** Where hosted files go: a directory (the default), or an S3 server the tests start themselves. */
export const storageKind = process.env.TEST_STORAGE === 's3' ? 's3' : 'file';

export interface TestDatabase extends Pick<Database, 'url' | 'drop'> {
  /** The file storage of this database's server: STORAGE_URL and, for S3, its settings. */
  storageEnv?: Record<string, string>;
}

/** Each test database made and not dropped yet, with where it was made. */
const undropped = new Map<string, string>();
// A run that leaves one behind fails, naming it: a database, and its files, would pile up in the
// temporary folder with every run (docs/testing.md#how-tests-start-and-stop-processes).
process.on('exit', () => {
  if (undropped.size === 0) return;
  const left = [...undropped].map(([url, where]) => `  ${url}, made ${where}`);
  process.stderr.write(`test databases never dropped:\n${left.join('\n')}\n`);
  process.exitCode = 1;
});

/** A fresh database (testing/test-database.ts), with a fresh file storage beside it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const database = await createDatabase();
  const storageEnv = await createTestStorage();
  const where = (new Error().stack ?? '')
    .split('\n')
    .slice(2, 4)
    .map((line) => line.trim());
  undropped.set(database.url, where.join(', '));
  return {
    ...database,
    storageEnv: storageEnv.env,
    drop: async () => {
      undropped.delete(database.url);
      await database.drop();
      storageEnv.drop();
    },
  };
}

/** An empty directory, or a new prefix on the test S3 server. */
export async function createTestStorage(): Promise<{ env: Record<string, string>; drop(): void }> {
  if (storageKind === 's3') {
    // Resumable uploads are staged on this disk whatever the store (docs/releases.md#resumable-uploads).
    const uploads = mkdtempSync(join(tmpdir(), 'chat-site-uploads-'));
    return {
      env: { ...s3Env(await startTestS3(), `t-${randomBytes(6).toString('hex')}`), UPLOAD_DIR: uploads },
      drop: () => rmSync(uploads, { recursive: true, force: true }),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'chat-site-files-'));
  return { env: { STORAGE_URL: `file:${dir}` }, drop: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The environment a test server runs with: the committed demo site config, quiet logs. */
export function testEnv(database: TestDatabase, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: database.url,
    SITE_CONFIG: join(repoRoot, 'site.config.json'),
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'silent',
    DEMO_CONTENT: '0',
    // One process, as these tests were written for; cluster.test.ts runs several workers.
    WORKERS: '1',
    WEB_ROOT: join(repoRoot, '.tmp/no-web-build'),
    ...database.storageEnv,
    ...extra,
  };
}

export interface TestApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  db: Db;
  config: ServerConfig;
  close(): Promise<void>;
}

/** The app in-process on a fresh database, for `app.inject`. */
export async function startTestApp(
  options: {
    demo?: boolean;
    env?: Record<string, string>;
    onRoute?: BuildOptions['onRoute'];
    logStream?: BuildOptions['logStream'];
    clock?: BuildOptions['clock'];
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  let db: Db | undefined;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let config: ServerConfig;
  try {
    config = loadConfig(testEnv(database, options.env));
    db = connect(config.database);
    const storage = storageFor(config.storage);
    await migrate(db, storage);
    if (options.demo === true) await loadDemoContent(db.kysely, storage);
    app = await buildApp({
      config,
      db,
      onRoute: options.onRoute,
      logStream: options.logStream,
      clock: options.clock,
    });
    await app.ready();
  } catch (error) {
    // A start that fails (as some tests mean it to) leaves no database behind.
    await db?.close().catch(() => undefined);
    await database.drop();
    throw error;
  }
  return {
    app,
    db,
    config,
    close: async () => {
      await app.close();
      await db.close();
      await database.drop();
    },
  };
}

export const bearer = { authorization: `Bearer ${adminToken}` };

/** Hosts `body` under `name` through the admin API; answers the stored file's key. */
export async function hostFile(app: TestApp['app'], name: string, body: Buffer): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: `/v1/admin/files?name=${encodeURIComponent(name)}`,
    headers: { ...bearer, 'content-type': 'application/octet-stream' },
    payload: body,
  });
  if (res.statusCode !== 201) throw new Error(`hosting ${name} answered ${res.statusCode}: ${res.body}`);
  return res.json<{ key: string }>().key;
}

/** Authorization headers that must never pass for the admin token: near misses of it (a letter
 * short, one too many, case, spacing, the wrong scheme) and the usual wrong guesses. */
export const wrongAuthorizations = [
  '',
  'Bearer',
  'Bearer ',
  'Bearer wrong-token-wrong-token',
  `Bearer ${adminToken.slice(0, -1)}`,
  `Bearer ${adminToken}x`,
  `Bearer ${adminToken.toUpperCase()}`,
  `Bearer  ${adminToken}`,
  `bearer ${adminToken}`,
  `Basic ${Buffer.from(`admin:${adminToken}`).toString('base64')}`,
  adminToken,
  `Token ${adminToken}`,
];

/**
 * Reads with `read` until `done` holds, trying again each time `app` hears of a content change.
 * Another server on the same PostgreSQL database hears of a commit by NOTIFY a moment after it;
 * on SQLite the first read sees it. Gives the last answer after `limitMs` with none that is done.
 */
export async function readUntil<T>(
  app: TestApp['app'],
  read: () => Promise<T>,
  done: (value: T) => boolean,
  limitMs = 10_000,
): Promise<T> {
  const changes = app.contentChanges;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<'limit'>((resolve) => (timer = setTimeout(() => resolve('limit'), limitMs)));
  try {
    for (;;) {
      const before = changes.generation();
      const arrived = changes.nextChange();
      const value = await read();
      if (done(value)) return value;
      // A change heard while reading is read again at once; otherwise wait for the next one.
      if (changes.generation() === before && (await Promise.race([arrived, limit])) === 'limit') return value;
    }
  } finally {
    clearTimeout(timer);
  }
}
