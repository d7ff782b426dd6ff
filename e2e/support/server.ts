/** The real built server on a fresh real database, for browser tests and screenshots. */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/support/repo-root.js';
import { spawnServer, type SpawnOptions } from '../../scripts/support/spawn-server.js';

export { repoRoot };
export const adminToken = 'e2e-admin-token-0123456789abcdefghij';

export interface RunningServer {
  url: string;
  port: number;
  child: ChildProcess;
  /** The database and file store it runs on, for the admin command line. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** server/dist on a new SQLite file with the committed site config; `env` overrides any of it. */
export async function startServer(
  env: Record<string, string> = {},
  options: SpawnOptions = {},
): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'chat-site-e2e-'));
  const fullEnv = {
    DATABASE_URL: `sqlite:${join(dir, 'site.db')}`,
    STORAGE_URL: `file:${join(dir, 'files')}`,
    SITE_CONFIG: join(repoRoot, 'site.config.json'),
    ADMIN_TOKEN: adminToken,
    // One process: the browser tests look at the site, and server/test/cluster.test.ts at workers.
    WORKERS: '1',
    ...env,
  };
  const server = await spawnServer(fullEnv, options).catch((error: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    url: server.url,
    port: Number(new URL(server.url).port),
    child: server.child,
    env: fullEnv,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
