/**
 * The built server (server/dist) as a real child process, for browser tests and scripts. The
 * server's own tests start it the same way from their helpers; e2e/ and scripts/ do not import
 * those (eslint.config.js keeps them out of server/test), which would load the database drivers
 * and the app's sources into every browser test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const repoRoot = resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  logs: string[];
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Servers still running. A test that fails half way (one of several servers did not start)
 * must not leave the others behind: they would outlive the test file and keep CI waiting. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts the built server (server/dist) as a real process on a free port. */
export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [join(repoRoot, 'server/dist/server.js')], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const logs: string[] = [];
  const exited = new Promise<number | null>((done) =>
    child.once('exit', (code) => {
      running.delete(child);
      done(code);
    }),
  );
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`server did not start:\n${logs.join('\n')}`));
    }, 20_000);
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        logs.push(line);
        const address = /"address":"(http:\/\/[^"]+)"/.exec(line)?.[1];
        if (address !== undefined) {
          clearTimeout(timer);
          done(address);
        }
      });
    }
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`server exited with ${code} before listening:\n${logs.join('\n')}`));
    });
  });
  return {
    url,
    child,
    logs,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
