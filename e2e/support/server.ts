/** The real built server on a fresh real database, for browser tests and screenshots. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const repoRoot = resolve(import.meta.dirname, '../..');
export const adminToken = 'e2e-admin-token-0123456789';

export interface RunningServer {
  url: string;
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'chat-site-e2e-'));
  const child = spawn(process.execPath, [join(repoRoot, 'server/dist/server.js')], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'site.db')}`,
      SITE_CONFIG: join(repoRoot, 'site.config.json'),
      ADMIN_TOKEN: adminToken,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
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
    void exited.then(() => fail(new Error(`server exited before listening:\n${logs.join('\n')}`)));
  });
  return {
    url,
    port: Number(new URL(url).port),
    child,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
