/**
 * The built server (server/dist) as a real child process, for the browser tests, the benchmark
 * scripts and the server's own tests. It lives outside server/test so that e2e/ and scripts/ can
 * use it without loading the server's test helpers (its sources and database drivers).
 */
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from './free-port.js';
import { spawnGroup } from './process-group.js';
import { repoRoot } from './repo-root.js';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  logs: string[];
  /** Resolves with the first log line, logged so far or later, that includes `match` (or that
   * `match` accepts). */
  logged(match: string | ((line: string) => boolean)): Promise<string>;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface SpawnOptions {
  /** Arguments for node before the script, e.g. ['--import', 'tsx']. */
  nodeArgs?: string[];
  /** The server's entry, from the repository root. */
  script?: string;
  /**
   * Logs only warnings and errors (LOG_LEVEL=warn), as a benchmark needs: one line per request
   * would cost more than many of the requests. The line that names the address is then not
   * written, so the server gets a free port and is ready once /healthz answers.
   */
  quiet?: boolean;
  /**
   * Writes the server's standard output (its log, at the LOG_LEVEL given in `env`, info when none
   * is) to this file rather than reading it here, as a deployment whose log goes to a file or a
   * collector would: a benchmark of the server at its defaults. Ready once /healthz answers.
   */
  logFile?: string;
  /** How long the server may take to answer: longer for workers on a busy machine. */
  startTimeoutMs?: number;
}

const defaultStartTimeoutMs = 20_000;

/** Starts the built server (server/dist) as a real process on a free port. */
export async function spawnServer(env: Record<string, string>, options: SpawnOptions = {}): Promise<ServerProcess> {
  const { nodeArgs = [], script = 'server/dist/server.js', quiet = false, logFile } = options;
  const startTimeoutMs = options.startTimeoutMs ?? defaultStartTimeoutMs;
  const polled = quiet || logFile !== undefined;
  const port = polled ? String(await freePort()) : '0';
  const logLevel = quiet ? 'warn' : logFile !== undefined ? (env.LOG_LEVEL ?? 'info') : 'info';
  const out = logFile === undefined ? 'pipe' : openSync(logFile, 'a');
  // Its own process group: a test that fails half way (one of several servers did not start)
  // leaves none of them, nor their workers, behind (process-group.ts).
  const { child, exited, stop } = spawnGroup(process.execPath, [...nodeArgs, resolve(repoRoot, script)], {
    cwd: repoRoot,
    // Share pictures' thread at first use: a warm start would cost every test's server seconds of CPU.
    env: { ...process.env, PORT: port, HOST: '127.0.0.1', SHARE_PICTURES_WARM: '0', ...env, LOG_LEVEL: logLevel },
    stdio: ['ignore', out, 'pipe'],
  });
  if (typeof out === 'number') closeSync(out);
  const logs: string[] = [];
  const lines = [child.stdout, child.stderr]
    .filter((stream) => stream !== null)
    .map((stream) => createInterface({ input: stream }));
  const waiters = new Set<{ accepts: (line: string) => boolean; found: (line: string) => void }>();
  for (const line of lines) {
    line.on('line', (text) => {
      logs.push(text);
      for (const waiter of waiters) {
        if (!waiter.accepts(text)) continue;
        waiters.delete(waiter);
        waiter.found(text);
      }
    });
  }
  const logged = (match: string | ((line: string) => boolean)) =>
    new Promise<string>((found) => {
      const accepts = typeof match === 'string' ? (line: string) => line.includes(match) : match;
      const seen = logs.find(accepts);
      if (seen === undefined) waiters.add({ accepts, found });
      else found(seen);
    });
  const url = await new Promise<string>((done, fail) => {
    let ready = false;
    const succeed = (address: string) => {
      ready = true;
      clearTimeout(timer);
      done(address);
    };
    const timer = setTimeout(() => {
      void stop('SIGKILL');
      fail(new Error(`server did not start within ${startTimeoutMs / 1000} s:\n${logs.join('\n')}`));
    }, startTimeoutMs);
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`server exited with ${code} before listening:\n${logs.join('\n')}`));
    });
    if (polled) {
      void (async () => {
        const address = `http://127.0.0.1:${port}`;
        while (!ready && child.exitCode === null && child.signalCode === null) {
          if (await answersHealth(address)) return succeed(address);
          await new Promise((wait) => setTimeout(wait, 100));
        }
      })();
    } else {
      for (const line of lines) {
        line.on('line', (text) => {
          const address = /"address":"(http:\/\/[^"]+)"/.exec(text)?.[1];
          if (address !== undefined) succeed(address);
        });
      }
    }
  });
  return { url, child, logs, logged, exited, stop };
}

async function answersHealth(address: string): Promise<boolean> {
  try {
    return (await fetch(`${address}/healthz`)).status === 200;
  } catch {
    return false; // not listening yet
  }
}
