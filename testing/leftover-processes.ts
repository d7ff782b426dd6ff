/**
 * The last check of scripts/test.sh: no process that the test run started is still running.
 *
 *   node --import tsx testing/leftover-processes.ts PID
 *
 * PID is the test script's own. A process is the run's leftover when it started after that
 * script, is no longer below it (what a test started and lost track of is handed to init, or to a
 * subreaper above the script), and runs in the repository or in one of the tests' temporary
 * directories (`$TMPDIR/chat-site-*`). Each one is named, then killed, and the exit code is 1.
 * See docs/testing.md#how-tests-start-and-stop-processes.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './repo-root.js';

interface Proc {
  pid: number;
  parent: number;
  /** Clock ticks after boot. */
  started: number;
}

function read(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name, in parentheses, may hold spaces: the fields follow its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, parent: Number(fields[1]), started: Number(fields[19]) };
  } catch {
    return undefined; // ended while being read
  }
}

function place(pid: number): string {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return '';
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

const script = read(Number(process.argv[2]));
if (script === undefined) {
  console.error('usage: leftover-processes.ts PID (the test script, still running)');
  process.exit(2);
}
const procs = new Map<number, Proc>();
for (const name of readdirSync('/proc')) {
  const proc = /^\d+$/.test(name) ? read(Number(name)) : undefined;
  if (proc !== undefined) procs.set(proc.pid, proc);
}

/** The script and the processes above it: where its lost descendants are handed to. */
const aboveScript = new Set<number>();
for (let up: Proc | undefined = script; up !== undefined; up = procs.get(up.parent)) aboveScript.add(up.pid);

/** Started by the run and lost: its line of ancestors started since the script leads, not back to
 * the script, but to one of the script's own ancestors (init, or a subreaper above it). A
 * process that a developer starts meanwhile in another terminal leads to that terminal's shell. */
function lost(proc: Proc): boolean {
  let up = procs.get(proc.parent);
  while (up !== undefined && up.started >= (script?.started ?? 0) && !aboveScript.has(up.pid)) {
    up = procs.get(up.parent);
  }
  return up === undefined || (aboveScript.has(up.pid) && up.pid !== script?.pid);
}

const ours = [repoRoot, join(tmpdir(), 'chat-site-')];
const leftovers = [...procs.values()].filter(
  (proc) =>
    !aboveScript.has(proc.pid) &&
    proc.started >= script.started &&
    lost(proc) &&
    ours.some((prefix) => place(proc.pid).startsWith(prefix)),
);
if (leftovers.length === 0) process.exit(0);

console.error(`\n!!! ${leftovers.length} process(es) started by the tests are still running:`);
for (const proc of leftovers) {
  console.error(`  ${proc.pid} (in ${place(proc.pid)}): ${commandLine(proc.pid)}`);
}
for (const proc of leftovers) {
  try {
    process.kill(proc.pid, 'SIGKILL');
  } catch {
    // ended meanwhile
  }
}
process.exit(1);
