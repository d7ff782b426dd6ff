/**
 * What the deployment tests share: processes started through scripts/deploy-check.sh (the
 * container image's steps without a container), nginx on deploy/nginx.conf, and plain HTTP with
 * a chosen client address. Their databases come from testing/test-database.ts.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request, type Agent, type OutgoingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '../../testing/free-port.js';
import { spawnGroup } from '../../testing/process-group.js';
import { repoRoot } from '../../testing/repo-root.js';

export { repoRoot };
export { resumeWithCurl } from '../../testing/resume-with-curl.js';
export const deployCheck = join(repoRoot, 'scripts/deploy-check.sh');

export interface Running {
  url: string;
  child: ChildProcess;
  logs: string[];
  exited: Promise<number | null>;
  /** Sends the signal (SIGTERM by default) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts a long-running process in a process group of its own (stopping it stops all it
 * started: npm's script, a supervisor's workers) and waits until `url` + `probe` answers 200. */
export async function startProcess(
  command: string,
  args: string[],
  options: { url: string; probe?: string; cwd?: string; env?: Record<string, string | undefined> },
): Promise<Running> {
  const group = spawnGroup(command, args, {
    cwd: options.cwd ?? repoRoot,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { child } = group;
  // 128 for a process ended by a signal, as a shell reports it.
  const exitCode = (code: number | null) => code ?? (child.signalCode === null ? null : 128);
  const exited = group.exited.then(exitCode);
  const stop = async (signal?: NodeJS.Signals) => exitCode(await group.stop(signal));
  const logs: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    if (stream !== null) createInterface({ input: stream }).on('line', (line) => logs.push(line));
  }
  const probe = `${options.url}${options.probe ?? '/healthz'}`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${command} ${args.join(' ')} exited before answering:\n${logs.join('\n')}`);
    }
    try {
      if ((await fetch(probe)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (attempt > 300) {
      await stop('SIGKILL');
      throw new Error(`${probe} did not answer within 30 s:\n${logs.join('\n')}`);
    }
    await new Promise((wait) => setTimeout(wait, 100));
  }
  return { url: options.url, child, logs, exited, stop };
}

/** Debian's nginx on deploy/nginx.conf in front of `upstreams` (host:port), on a free port;
 * with `filesDir`, its /internal-files/ location serves that directory; with `s3Upstream`
 * (host:port), its /internal-s3/ location fetches from that S3 endpoint. */
export async function startNginx(
  upstreams: string[],
  { filesDir, s3Upstream }: { filesDir?: string; s3Upstream?: string } = {},
): Promise<Running & { dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'chat-site-nginx-'));
  const port = await freePort();
  const nginx = await startProcess('bash', [deployCheck, 'nginx', dir, `127.0.0.1:${port}`, ...upstreams], {
    url: `http://127.0.0.1:${port}`,
    env: { ...process.env, FILES_DIR: filesDir, S3_UPSTREAM: s3Upstream },
  });
  return {
    ...nginx,
    dir,
    // SIGQUIT: nginx's graceful stop.
    stop: async (signal = 'SIGQUIT') => {
      const code = await nginx.stop(signal);
      rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
}

/** nginx's error log so far, for failure messages. */
export function nginxErrors(nginx: { dir: string }): string {
  try {
    return readFileSync(join(nginx.dir, 'error.log'), 'utf8');
  } catch {
    return '';
  }
}

/** Installs nginx when missing (as root); false when it cannot be had. */
export function ensureNginx(): boolean {
  return spawnSync('bash', [join(repoRoot, 'scripts/ensure-nginx.sh')], { stdio: 'inherit' }).status === 0;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One HTTP request, from `localAddress` when given (any 127.x.y.z is this machine). */
export function call(
  url: string,
  options: {
    method?: string;
    headers?: OutgoingHttpHeaders;
    body?: Buffer | string;
    localAddress?: string;
    agent?: Agent;
  } = {},
): Promise<Answer> {
  return new Promise((done, fail) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        localAddress: options.localAddress,
        agent: options.agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', fail);
      },
    );
    req.on('error', fail);
    req.end(options.body);
  });
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** An install package the upload checks accept: a zip's first bytes, then `size` random ones. */
export function fakeApk(size: number): Buffer {
  return Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(size)]);
}

export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((wait) => setTimeout(wait, 50));
  }
}
