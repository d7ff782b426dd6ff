/**
 * The supervisor's start: a child process (the server's entry with CHAT_SITE_ROLE=prepare) reads
 * and checks the settings, migrates the database, loads the demo content and prints the start-up
 * hints, then tells the supervisor the few settings it needs and exits. Only then do the workers
 * start. So the supervisor, which lives as long as the server, never loads the app, the database
 * drivers, the settings' schemas or pino (docs/scaling.md#workers).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { supervisorLogger } from './log.js';
import { supervise } from './supervisor.js';

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

/** Runs the preparing child; resolves with what it sent, or ends this process with the child's
 * exit code (2 for wrong settings, whose message the child has written). */
function prepare(): Promise<Prepared> {
  return new Promise((done) => {
    const child = fork(entry, [], { env: { ...process.env, CHAT_SITE_ROLE: 'prepare' }, stdio: 'inherit' });
    let prepared: Prepared | undefined;
    child.on('message', (message) => {
      if (isPrepared(message)) prepared = message;
    });
    // A stop asked for while the database is prepared goes to the child, and ends this process.
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGTERM', forward).on('SIGINT', forward);
    child.once('exit', (code, signal) => {
      process.off('SIGTERM', forward).off('SIGINT', forward);
      if (code === 0 && prepared !== undefined) return done(prepared);
      process.exit(code ?? (signal === 'SIGTERM' || signal === 'SIGINT' ? 0 : 1));
    });
  });
}

export async function startSupervisor(): Promise<void> {
  const { workers, shutdownTimeoutMs, logLevel } = await prepare();
  supervise({ workers, shutdownTimeoutMs, log: supervisorLogger(logLevel) });
}
