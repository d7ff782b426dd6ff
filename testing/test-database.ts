/**
 * The one way tests get a database: the server's tests (server/test/helpers.ts), the browser
 * tests' server (e2e/support/server.ts) and the deployment tests (e2e/deploy). A fresh, empty one
 * each time: a SQLite file in a new temporary directory, or a new database on a PostgreSQL
 * cluster, TEST_POSTGRES_URL's (scripts/test.sh starts one) or, when that is unset and a test
 * needs PostgreSQL anyway, a throwaway cluster of its own (scripts/pg-cluster.sh).
 * See docs/testing.md#the-test-databases.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.js';
import { repoRoot } from './repo-root.js';

export type TestDialect = 'sqlite' | 'postgres';

/** What the tests run on unless one asks for a dialect: PostgreSQL when TEST_POSTGRES_URL is set. */
export const testDialect: TestDialect = process.env.TEST_POSTGRES_URL ? 'postgres' : 'sqlite';

export interface TestDatabase {
  /** DATABASE_URL for the server. */
  url: string;
  dialect: TestDialect;
  /** The SQLite file, for a test that writes rows the API would refuse. */
  file?: string;
  /** Removes the database (and the throwaway cluster it was made on, if any). */
  drop(): Promise<void>;
}

export async function createDatabase(options: { dialect?: TestDialect; prefix?: string } = {}): Promise<TestDatabase> {
  const { dialect = testDialect, prefix = 'test' } = options;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), `chat-site-${prefix}-`));
    const file = join(dir, 'site.db');
    return { url: `sqlite:${file}`, dialect, file, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const given = process.env.TEST_POSTGRES_URL ?? '';
  const cluster = given === '' ? await startCluster() : undefined;
  const adminUrl = cluster?.url ?? given;
  const name = `${prefix.replaceAll('-', '_')}_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dialect,
    drop: async () => {
      if (cluster !== undefined) return cluster.stop();
      await withClient(adminUrl, async (client) => {
        await connectionsGone(client, name);
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      });
    },
  };
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** pg's pool.end() resolves before its connections are gone; forcing the drop while they close
 * makes them raise errors nobody listens for. PostgreSQL tells of no such end: ask, for up to 5 s. */
async function connectionsGone(client: pg.Client, name: string): Promise<void> {
  for (let attempt = 0; attempt < 250; attempt++) {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
      [name],
    );
    if (rows[0]?.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function startCluster(): Promise<{ url: string; stop(): Promise<void> }> {
  const script = join(repoRoot, 'scripts/pg-cluster.sh');
  const dir = mkdtempSync(join(tmpdir(), 'chat-site-pg-'));
  const started = spawnSync('bash', [script, 'start', dir, String(await freePort())], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (started.status !== 0) throw new Error('scripts/pg-cluster.sh could not start PostgreSQL');
  return {
    url: started.stdout.trim(),
    stop: async () => void spawnSync('bash', [script, 'stop', dir], { stdio: 'inherit' }),
  };
}
