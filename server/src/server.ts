/**
 * The server's entry: chooses what this process is, then loads only what that needs (serving.ts
 * opens the port and stops gracefully on SIGTERM). With
 * WORKERS above 1 this process is a supervisor (cluster/start.ts): a child prepares the database
 * once, then the supervisor starts that many workers, each of which runs this file again and
 * serves on the shared port. The supervisor loads none of the app (docs/scaling.md#workers).
 */
import './lib/node-version.js';
import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';

/** WORKERS=1, or no WORKERS on one core, serves in this one process. Everything else about the
 * setting, a wrong value included, is config.ts's to read, in the process that prepares. */
function servesAlone(): boolean {
  const workers = process.env.WORKERS ?? '';
  return workers === '' ? availableParallelism() === 1 : Number(workers) === 1;
}

/** The preparing child's role: `prepare` at a start, `prepare-again` for new workers on SIGHUP,
 * when the server goes on serving whatever the child meets (cluster/start.ts). */
const role = process.env.CHAT_SITE_ROLE;

async function main(): Promise<void> {
  if (role === 'prepare' || role === 'prepare-again') return (await import('./serving.js')).run('prepare');
  if (cluster.isWorker) return (await import('./serving.js')).run('worker');
  if (servesAlone()) return (await import('./serving.js')).run('alone');
  return (await import('./cluster/start.js')).startSupervisor();
}

main().catch((error: unknown) => {
  const failed = role === 'prepare-again' ? 'New workers not started' : 'Server failed to start';
  process.stderr.write(`${failed}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
