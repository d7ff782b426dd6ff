/**
 * The supervisor's start: a child process (the server's entry with CHAT_SITE_ROLE=prepare) reads
 * and checks the settings, migrates the database, loads the demo content and prints the start-up
 * hints, then tells the supervisor the few settings it needs and exits. Only then do the workers
 * start, and SIGHUP runs such a child again (CHAT_SITE_ROLE=prepare-again) before it replaces
 * them. So the supervisor, which lives as long as the server, never loads the app, the database
 * drivers, the settings' schemas or pino (docs/scaling.md#workers).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { supervisorLogger } from './log.js';
import { supervise, type PrepareFailure } from './supervisor.js';

/** What the preparing child sends before it exits. */
export interface Prepared {
  chatSite: 'prepared';
  workers: number;
  shutdownTimeoutMs: number;
  logLevel: string;
}

const entry = fileURLToPath(new URL('../server.js', import.meta.url));

function isPrepared(message: unknown): message is Prepared {
  return typeof message === 'object' && message !== null && (message as Prepared).chatSite === 'prepared';
}

/** Runs the preparing child of the build on disk now; resolves with what it sent, or with how it
 * ended when it failed (its message is on the server's standard error). A stop asked for while it
 * runs goes to it too: a migration it cuts short is rolled back. */
function prepare(again: boolean): Promise<Prepared | PrepareFailure> {
  return new Promise((done) => {
    const role = again ? 'prepare-again' : 'prepare';
    const child = fork(entry, [], { env: { ...process.env, CHAT_SITE_ROLE: role }, stdio: 'inherit' });
    let prepared: Prepared | undefined;
    child.on('message', (message) => {
      if (isPrepared(message)) prepared = message;
    });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGTERM', forward).on('SIGINT', forward);
    child.once('exit', (code, signal) => {
      process.off('SIGTERM', forward).off('SIGINT', forward);
      done(code === 0 && prepared !== undefined ? prepared : { code, signal });
    });
  });
}

export async function startSupervisor(): Promise<void> {
  const first = await prepare(false);
  if (!isPrepared(first)) {
    // 2 for wrong settings, as with one process; 0 for a stop asked for while preparing.
    const { code, signal } = first;
    process.exit(code ?? (signal === 'SIGTERM' || signal === 'SIGINT' ? 0 : 1));
  }
  const { workers, shutdownTimeoutMs, logLevel } = first;
  // SIGHUP prepares again before it starts new workers: a new build may bring migrations.
  const again = async () => {
    const result = await prepare(true);
    return isPrepared(result) ? undefined : result;
  };
  supervise({ workers, shutdownTimeoutMs, log: supervisorLogger(logLevel), prepare: again });
}
