/**
 * The command line's changes go into the audit log as the admin API's do
 * (docs/behaviour.md#operator-accounts), with their source: `cli:` and the user of the operating
 * system who ran the command (`cli` alone when that cannot be told).
 */
import { userInfo } from 'node:os';
import type { Kysely } from 'kysely';
import { recordAudit } from '../accounts/repository.js';
import type { Database } from '../db/schema.js';

export function cliActor(): string {
  try {
    const name = process.env.SUDO_USER || userInfo().username;
    return name === '' ? 'cli' : `cli:${name}`;
  } catch {
    return 'cli';
  }
}

export async function auditCli(
  db: Kysely<Database>,
  change: { action: string; target: string | number; before?: unknown; after?: unknown },
): Promise<void> {
  await recordAudit(db, { ...change, target: String(change.target), actor: cliActor() });
}
