/**
 * For scripts/bench-load.ts, scripts/bench-api.ts and scripts/bench-files.ts: the real built
 * server on a fresh SQLite file and a free 127.0.0.1 port, realistic content published through
 * the admin API, the server's RSS read from /proc, nginx and wrk as references, and where the
 * results go.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '../testing/free-port.js';
import { spawnGroup } from '../testing/process-group.js';
import { repoRoot } from '../testing/repo-root.js';
import { spawnServer, type ServerProcess } from '../testing/spawn-server.js';

/** Writes a benchmark's results as JSON to BENCH_RESULTS, or to .tmp/<name>.json; answers the
 * path written. */
export function writeResults(name: string, results: unknown): string {
  const out = resolve(process.env.BENCH_RESULTS || join(repoRoot, '.tmp', `${name}.json`));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  return out;
}

export interface BenchServer {
  url: string;
  pid: number;
  adminToken: string;
  databasePath: string;
  /** The server's own copy of web/dist, and the main hashed script in it. */
  webRoot: string;
  asset: string;
  /** Every line the server wrote (at LOG_LEVEL=warn: only warnings and errors). */
  logs: string[];
  stop(): Promise<void>;
}

function requireBuild(): void {
  for (const file of ['server/dist/server.js', 'web/dist/index.html']) {
    if (!existsSync(join(repoRoot, file))) {
      throw new Error(`${file} is missing: run \`npm run build\` first`);
    }
  }
}

/**
 * A private copy of the built site: a rebuild of web/dist during a run (hashes change, old
 * assets vanish) would otherwise turn the asset target into 404s. Answers the copy's root and
 * the main hashed script that its index.html starts (index-<hash>.js).
 */
function snapshotSite(dir: string): { webRoot: string; asset: string } {
  const webRoot = join(dir, 'web');
  cpSync(join(repoRoot, 'web/dist'), webRoot, { recursive: true });
  const html = readFileSync(join(webRoot, 'index.html'), 'utf8');
  // The boot script starts the entry after the first paint, from the list the build writes into
  // <meta name="entry-scripts">: the page has no <script src> for it.
  const asset = /\/assets\/(index-[\w-]+\.js)/.exec(html)?.[1];
  if (asset === undefined || !existsSync(join(webRoot, 'assets', asset))) {
    throw new Error('web/dist is incomplete (a build in progress?): run `npm run build` and try again');
  }
  return { webRoot, asset };
}

/** `value` rounded to `digits` decimals, as the benchmarks print their figures. */
export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** What a benchmark's figures were measured on, as its report records it. */
export function machineFacts() {
  return {
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    loadAverageAtStart: loadavg().map((l) => round(l, 2)),
  };
}

/** A whole number from the environment, or the fallback; anything else ends the script (exit 2). */
export function intFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    console.error(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
    process.exit(2);
  }
  return value;
}

/**
 * `nodeArgs` go to node before the script, e.g. ['--trace-gc'] when looking into memory;
 * `script` is the server's entry (the built server, unless a benchmark wraps it); `env` adds to
 * or replaces the server's environment (e.g. where it stores files). The server logs only
 * warnings, unless `logFile` is given: then it logs at its default level (one line per request)
 * into that file, as a deployment would.
 */
export async function startBenchServer(
  nodeArgs: string[] = [],
  script = 'server/dist/server.js',
  env: Record<string, string> = {},
  { logFile, startTimeoutMs }: { logFile?: string; startTimeoutMs?: number } = {},
): Promise<BenchServer> {
  requireBuild();
  const dir = mkdtempSync(join(tmpdir(), 'chat-site-bench-'));
  const databasePath = join(dir, 'site.db');
  let site: { webRoot: string; asset: string };
  try {
    site = snapshotSite(dir);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const { webRoot, asset } = site;
  const adminToken = randomBytes(32).toString('hex');
  // However this script ends, the server's files go with it (spawnServer ends the server).
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeDir);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  let server: ServerProcess;
  try {
    server = await spawnServer(
      {
        DATABASE_URL: `sqlite:${databasePath}`,
        STORAGE_URL: `file:${join(dir, 'files')}`,
        DEMO_CONTENT: '0',
        ADMIN_TOKEN: adminToken,
        SITE_CONFIG: join(repoRoot, 'site.config.json'),
        WEB_ROOT: webRoot,
        // One process, whose memory /proc shows; bench:api asks for more workers itself.
        WORKERS: '1',
        ...env,
      },
      logFile === undefined
        ? { nodeArgs, script, quiet: true, startTimeoutMs }
        : { nodeArgs, script, logFile, startTimeoutMs },
    );
  } catch (error) {
    process.removeListener('exit', removeDir);
    removeDir();
    throw error;
  }
  const { child, url, logs } = server;
  if (child.pid === undefined) throw new Error('the server has no pid');

  return {
    url,
    pid: child.pid,
    adminToken,
    databasePath,
    webRoot,
    asset,
    logs,
    stop: async () => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await server.stop();
      clearTimeout(timer);
      process.removeListener('exit', removeDir);
      removeDir();
    },
  };
}

// A 1×1 PNG: the image the announcements link to, uploaded like an operator would.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const topics = ['服务器维护通知', '新版本发布', '安全提醒', '春节活动', '功能更新', '服务条款更新'];

// Common characters to write varied prose from: repeated boilerplate would compress far better
// than real announcements do, and make the compressed answers unrealistically cheap.
const characters =
  '的一是在不了有和人这中大为上个我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经' +
  '十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天四日那社事平形相' +
  '全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系很情者最立代想已通并提直题程展五果';

/** The same text for the same seed, so that runs are comparable. */
function prose(seed: number, length: number): string {
  let state = seed * 2654435761;
  let text = '';
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    text += characters[state % characters.length];
    if (i % 23 === 22) text += state % 3 === 0 ? '。' : '，';
  }
  return `${text}。`;
}

/** Announcement HTML of about 1–2 KB: headings, paragraphs, a list, a link and a relative image. */
function announcementHtml(n: number, imagePath: string): string {
  const items = Array.from({ length: 2 + (n % 3) }, (_, i) => `<li>${prose(n * 100 + i, 18)}</li>`);
  const paragraphs = Array.from({ length: 2 + (n % 2) }, (_, i) => `<p>${prose(n * 10 + i, 110 + ((n * 7) % 70))}</p>`);
  return (
    `<h2>${topics[n % topics.length]}（${n}）</h2>${paragraphs.join('')}` +
    `<ul>${items.join('')}</ul>` +
    `<p><img src="${imagePath}" alt="公告配图" width="640" height="320" /></p>` +
    `<p>详情请见 <a href="https://example.com/notes/${n}">更新说明</a>。</p>`
  );
}

/** Publishes `count` announcements (a few pinned): their ids, oldest first, and their mean size. */
export async function publishAnnouncements(
  url: string,
  adminToken: string,
  count: number,
): Promise<{ ids: number[]; meanContentBytes: number }> {
  const auth = { authorization: `Bearer ${adminToken}` };
  const upload = await fetch(`${url}/v1/admin/files?name=banner.png`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'image/png' },
    body: png,
  });
  if (upload.status !== 201) throw new Error(`image upload answered ${upload.status}: ${await upload.text()}`);
  const { path } = (await upload.json()) as { path: string };
  const ids: number[] = [];
  let contentBytes = 0;
  for (let n = 1; n <= count; n++) {
    const content = announcementHtml(n, path);
    contentBytes += Buffer.byteLength(content);
    const response = await fetch(`${url}/v1/admin/bulletins`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: `${topics[n % topics.length]} 第 ${n} 期`,
        content,
        topup: n % 17 === 0 ? 1 : 0,
      }),
    });
    if (response.status !== 201)
      throw new Error(`publishing ${n} answered ${response.status}: ${await response.text()}`);
    ids.push(((await response.json()) as { id: number }).id);
  }
  return { ids, meanContentBytes: Math.round(contentBytes / count) };
}

export interface RssSample {
  /** Seconds since sampling started. */
  t: number;
  /** Resident set size in bytes. */
  rss: number;
}

/** Reads a process's resident set size (VmRSS in /proc/<pid>/status) once a second, or every
 * `intervalMs`. */
export class RssSampler {
  readonly #pid: number;
  readonly #intervalMs: number;
  #samples: RssSample[] = [];
  #timer: NodeJS.Timeout | undefined;
  #started = 0;

  constructor(pid: number, intervalMs = 1000) {
    this.#pid = pid;
    this.#intervalMs = intervalMs;
  }

  read(): number {
    const status = readFileSync(`/proc/${this.#pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
    if (kb === undefined) throw new Error(`no VmRSS in /proc/${this.#pid}/status`);
    return Number(kb) * 1024;
  }

  start(): void {
    this.#samples = [];
    this.#started = performance.now();
    const sample = () => this.#samples.push({ t: (performance.now() - this.#started) / 1000, rss: this.read() });
    sample();
    this.#timer = setInterval(sample, this.#intervalMs);
  }

  /** Stops sampling after one last sample, and answers them all. */
  stop(): RssSample[] {
    clearInterval(this.#timer);
    this.#samples.push({ t: (performance.now() - this.#started) / 1000, rss: this.read() });
    return this.#samples.map((s) => ({ t: Math.round(s.t * 100) / 100, rss: s.rss }));
  }
}

export interface Nginx {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export interface NginxOptions {
  /** worker_processes. */
  workers: number;
  /** More lines for the http block (types, sendfile, keep-alive). */
  http: string[];
}

/** Debian's nginx, serving `dir`/www on a free port, as a child of this script, on its own config
 * in `dir` (install it first with scripts/ensure-nginx.sh). */
export async function startNginx(dir: string, { workers, http }: NginxOptions): Promise<Nginx> {
  const port = await freePort();
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    [
      `worker_processes ${workers};`,
      'daemon off;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      'events { worker_connections 1024; }',
      'http {',
      `  access_log ${dir}/access.log;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${dir}/${kind};`),
      ...http,
      `  server { listen 127.0.0.1:${port}; root ${dir}/www; }`,
      '}',
      '',
    ].join('\n'),
  );
  // Its own process group: a master killed by SIGKILL would leave its workers behind.
  const nginx = spawnGroup('/usr/sbin/nginx', ['-p', dir, '-e', `${dir}/error.log`, '-c', conf], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const { child } = nginx;
  const errors: string[] = [];
  if (child.stderr !== null) createInterface({ input: child.stderr }).on('line', (line) => errors.push(line));
  const kill = () => void nginx.stop('SIGKILL');
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null || Date.now() > deadline) {
      kill();
      throw new Error(`nginx did not start: ${errors.join('\n')}`);
    }
    try {
      await fetch(`${url}/`);
      break;
    } catch {
      await new Promise((done) => setTimeout(done, 100));
    }
  }
  if (child.pid === undefined) throw new Error('nginx has no pid');
  return {
    url,
    pid: child.pid,
    stop: async () => {
      // SIGQUIT: nginx's graceful stop.
      const timer = setTimeout(kill, 5_000);
      await nginx.stop('SIGQUIT');
      clearTimeout(timer);
    },
  };
}

export interface WrkRun {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Socket errors (connect, read, write, timeout) and answers other than 2xx or 3xx. */
  errors: number;
  /** The load average when the run started. */
  loadAverage: number[];
}

export interface WrkLoad {
  threads: number;
  connections: number;
  seconds: number;
  /** Send `Connection: close`, so that each request opens a connection. */
  newConnections?: boolean;
}

/** wrk's options for `load`, before the URL. */
export function wrkOptions(load: WrkLoad): string[] {
  return [
    ...(load.newConnections === true ? ['-H', 'Connection: close'] : []),
    `-t${load.threads}`,
    `-c${load.connections}`,
    `-d${load.seconds}s`,
    '--latency',
  ];
}

/** One wrk run against `url` (installed by scripts/ensure-nginx.sh), its figures read from its report. */
export function wrk(url: string, options: WrkLoad): WrkRun {
  const loadAverage = loadavg().map((l) => round(l, 2));
  const args = [...wrkOptions(options), url];
  const run = spawnSync('wrk', args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`wrk ${args.join(' ')} failed: ${run.stderr}`);
  const text = run.stdout;
  const ms = (label: string) => {
    const match = new RegExp(`^\\s*${label}\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(text);
    if (match === null) throw new Error(`no ${label} in wrk's report:\n${text}`);
    const value = Number(match[1]);
    return round(match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value, 2);
  };
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(text);
  const errors =
    (socket === null ? 0 : socket.slice(1).reduce((sum, n) => sum + Number(n), 0)) +
    (non2xx === null ? 0 : Number(non2xx[1]));
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(text);
  if (rps === null) throw new Error(`no Requests/sec in wrk's report:\n${text}`);
  return { requestsPerSecond: round(Number(rps[1]), 0), p50Ms: ms('50%'), p99Ms: ms('99%'), errors, loadAverage };
}
