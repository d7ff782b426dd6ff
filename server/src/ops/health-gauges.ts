/**
 * What the health gauges read when scraped (docs/monitoring.md#metrics), for alerts
 * (deploy/alerts.yml): whether the process could serve, by the checks `/readyz` makes
 * (ops/health.ts: the database answers, the file storage can be used, no migration pending), and
 * the file system the directory store writes to.
 */
import { statfs } from 'node:fs/promises';
import { sql } from 'kysely';
import type { ServerConfig } from '../config.js';
import type { Db } from '../db/connect.js';
import { pendingMigrations } from '../db/migrations.js';
import type { Disk, Watched } from '../lib/metrics.js';
import { storageFor } from '../storage/index.js';

/** Longest a scrape waits for the checks: a stuck database must not stall the scrape. */
const checkTimeoutMs = 3000;

export function healthGauges(config: ServerConfig, db: Db): Pick<Watched, 'ready' | 'filesDisk'> {
  const storage = storageFor(config.storage);
  const checks = async () => {
    await sql`select 1`.execute(db.kysely);
    await storage.check();
    return (await pendingMigrations(db)).length === 0;
  };
  const dir = config.storage.kind === 'file' ? config.storage.dir : undefined;
  return {
    ready: async () => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((done) => (timer = setTimeout(() => done(false), checkTimeoutMs)));
      try {
        return await Promise.race([checks().catch(() => false), late]);
      } finally {
        clearTimeout(timer);
      }
    },
    ...(dir !== undefined && { filesDisk: async (): Promise<Disk> => diskOf(dir) }),
  };
}

async function diskOf(dir: string): Promise<Disk> {
  const stats = await statfs(dir);
  // bavail: what an unprivileged process (the server) may still write.
  return { freeBytes: stats.bavail * stats.bsize, sizeBytes: stats.blocks * stats.bsize };
}
