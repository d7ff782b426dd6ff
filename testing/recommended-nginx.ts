/**
 * The recommended nginx (deploy/nginx.conf through scripts/deploy-check.sh nginx) in front of one
 * server, for benchmarks: the same file the deployment tests run, as a child of this script.
 * With `filesDir`, its /internal-files/ location serves that directory
 * (docs/storage.md#nginx-sends-the-files); with `s3Upstream` (host:port), its /internal-s3/
 * location fetches from that S3 endpoint (docs/storage.md#with-s3).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { spawnGroup } from './process-group.js';
import { repoRoot } from './repo-root.js';

export interface RecommendedNginx {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startRecommendedNginx(
  upstream: string,
  { filesDir, s3Upstream }: { filesDir?: string; s3Upstream?: string } = {},
): Promise<RecommendedNginx> {
  const dir = mkdtempSync(join(tmpdir(), 'chat-site-bench-nginx-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const group = spawnGroup(
    'bash',
    [join(repoRoot, 'scripts/deploy-check.sh'), 'nginx', dir, `127.0.0.1:${port}`, upstream],
    { env: { ...process.env, FILES_DIR: filesDir, S3_UPSTREAM: s3Upstream }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const stop = async () => {
    await group.stop('SIGQUIT');
    rmSync(dir, { recursive: true, force: true });
  };
  // Ready once a request passes through it to the server.
  for (let attempt = 0; ; attempt++) {
    if (group.child.exitCode !== null) throw new Error('nginx (deploy-check.sh nginx) did not start');
    try {
      if ((await fetch(`${url}/healthz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (attempt > 200) {
      await stop();
      throw new Error(`nginx on ${url} did not pass /healthz on within 20 s`);
    }
    await new Promise((wait) => setTimeout(wait, 100));
  }
  return { url, pid: group.child.pid ?? 0, stop };
}
