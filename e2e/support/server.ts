/** The real built server on a fresh real database, for browser tests and screenshots. */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../testing/repo-root.js';
import { spawnServer, type SpawnOptions } from '../../testing/spawn-server.js';
import { createDatabase, type TestDatabase } from '../../testing/test-database.js';

export { repoRoot };
export const adminToken = 'e2e-admin-token-0123456789abcdefghij';

export interface RunningServer {
  url: string;
  port: number;
  child: ChildProcess;
  /** The database and file store it runs on, for the admin command line. */
  env: Record<string, string>;
  /** Its database (a SQLite file), for a test that writes rows the API would refuse. */
  database: TestDatabase;
  stop(): Promise<void>;
  /** Stops the process and keeps its database and files, as a crash or a deploy would. */
  halt(): Promise<void>;
  /** Starts it again on the same port, database and files after halt(). */
  resume(): Promise<void>;
}

/** server/dist on a new SQLite file with the committed site config; `env` overrides any of it.
 * SQLite whatever TEST_POSTGRES_URL says: the browser tests look at the site, and the server's
 * tests run on both databases. */
export async function startServer(
  env: Record<string, string> = {},
  options: SpawnOptions = {},
): Promise<RunningServer> {
  const database = await createDatabase({ dialect: 'sqlite', prefix: 'e2e' });
  const dir = mkdtempSync(join(tmpdir(), 'chat-site-e2e-files-'));
  const remove = async () => {
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  };
  const fullEnv = {
    DATABASE_URL: database.url,
    STORAGE_URL: `file:${join(dir, 'files')}`,
    SITE_CONFIG: join(repoRoot, 'site.config.json'),
    ADMIN_TOKEN: adminToken,
    // One process: the browser tests look at the site, and server/test/cluster.test.ts at workers.
    WORKERS: '1',
    ...env,
  };
  let server = await spawnServer(fullEnv, options).catch(async (error: unknown) => {
    await remove();
    throw error;
  });
  const port = Number(new URL(server.url).port);
  let halted = false;
  return {
    url: server.url,
    port,
    get child() {
      return server.child;
    },
    env: fullEnv,
    database,
    stop: async () => {
      if (!halted) await server.stop();
      await remove();
    },
    halt: async () => {
      halted = true;
      await server.stop();
    },
    resume: async () => {
      server = await spawnServer({ ...fullEnv, PORT: String(port) }, options);
      halted = false;
    },
  };
}
