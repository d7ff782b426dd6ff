/**
 * Long-running processes that tests and benchmarks start (servers, nginx, `npm start`), each in a
 * process group of its own, so that stopping one stops everything it started: npm's shell, a
 * supervisor's workers, a server run as another user by scripts/deploy-check.sh. Signalling the
 * direct child alone is not enough: npm does not pass SIGTERM on to `node scripts/start.mjs`,
 * which then outlives the test with its workers. See docs/testing.md#how-tests-start-and-stop-processes.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Groups still running, killed when this process ends however it ends. */
const groups = new Set<number>();

function killGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // the group is gone
  }
}

function killAll(): void {
  for (const pgid of groups) killGroup(pgid, 'SIGKILL');
  groups.clear();
}

process.once('exit', killAll);
// A test file stopped from outside (scripts/test.sh's time limit, Ctrl-C) takes its groups along;
// a listener replaces Node's default of ending at once, so this ends the process itself.
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  process.once(signal, () => {
    killAll();
    process.kill(process.pid, signal);
  });
}

export interface GroupChild {
  child: ChildProcess;
  /** Resolves with the exit code (null when ended by a signal) once the direct child has ended. */
  exited: Promise<number | null>;
  /**
   * Sends `signal` to the direct child (the one that decides how to stop the rest), waits for it
   * to end, then ends whatever of its group is left and waits until none is.
   */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `spawn` in a new process group (and session) led by the child. */
export function spawnGroup(command: string, args: string[], options: SpawnOptions): GroupChild {
  const child = spawn(command, args, { ...options, detached: true });
  const pgid = child.pid;
  if (pgid !== undefined) groups.add(pgid);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const code = await exited;
    if (pgid !== undefined) {
      await endGroup(pgid);
      groups.delete(pgid);
    }
    return code;
  };
  return { child, exited, stop };
}

/** SIGKILL for what is left of the group, then a wait (5 s at most) until the kernel has removed
 * all of it: a member killed a moment ago may still be listed until it is reaped. */
async function endGroup(pgid: number): Promise<void> {
  for (let turn = 0; turn < 250 && killGroup(pgid, 'SIGKILL'); turn++) {
    await new Promise((wait) => setTimeout(wait, 20));
  }
}

/** Every process below `pid` (children, their children, …), read from /proc: for tests that
 * check that stopping a process stopped all it had started. */
export function descendants(pid: number): number[] {
  let children: number[];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return []; // gone already
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** Whether a process (not a zombie) with this pid is running. */
export function running(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}
