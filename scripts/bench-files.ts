/**
 * `npm run bench:files`: the real built server hosting an install package of BENCH_FILE_MB
 * (default 100) MB of random bytes, uploaded as an operator would (`POST /v1/admin/files`, the
 * body streamed from disk) and downloaded at `GET /v1/file/preview/<key>`.
 *
 * 1. Slow clients: BENCH_CLIENTS (default 40) downloads at once, each reading at most
 *    BENCH_CLIENT_KBPS (default 3072 KiB/s, so about 33 s for 100 MB) by pausing its socket, as
 *    phones on a slow network do. Every download's SHA-256 is checked. The server's RSS is read
 *    from /proc every 250 ms: idle (after the upload, before any download), peak, and peak minus
 *    idle, which must stay within 100 MB.
 * 2. Throughput: one fast client (curl to /dev/null) downloads the whole file BENCH_ROUNDS
 *    (default 5) times from the server and from Debian's nginx serving the same file from disk,
 *    alternately, after one unmeasured download from each whose SHA-256 is checked. Reported:
 *    the median MB/s of each and their ratio, which should be at least 0.5.
 *
 * nginx runs as a child of this script on its own config in a temporary directory (daemon off,
 * sendfile on, one worker: the server is one process with one JavaScript thread, and on a
 * two-core machine a second worker would only take a core from curl). It and curl are installed
 * from Debian by scripts/ensure-nginx.sh when missing. Only 127.0.0.1 is contacted.
 *
 * Results are printed as a table and written to .tmp/bench-files.json, or to the file
 * BENCH_RESULTS names. Exits 0 when every figure meets its goal, 1 when one does not or the server
 * refused the upload (nginx is still measured then), 2 on a bad setting.
 * See docs/operations.md#benchmarking-file-downloads.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, createReadStream, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  intFromEnv,
  machineFacts,
  round,
  RssSampler,
  startBenchServer,
  startNginx,
  writeResults,
} from './bench-support.js';
import { repoRoot } from './support/repo-root.js';

const fileMB = intFromEnv('BENCH_FILE_MB', 100, 1, 2048);
const clients = intFromEnv('BENCH_CLIENTS', 40, 1, 500);
const clientKBps = intFromEnv('BENCH_CLIENT_KBPS', 3072, 16, 1_048_576);
const rounds = intFromEnv('BENCH_ROUNDS', 5, 1, 50);
const fileBytes = fileMB * 1024 * 1024;
const rssGoalMB = 100;
const ratioGoal = 0.5;
const sampleMs = 250;
const packageType = 'application/vnd.android.package-archive';

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const median = (values: number[]) => {
  const sorted = values.toSorted((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
};

/** Random bytes, so that nothing on the way can compress them, behind a zip's signature, so
 * that the server takes them as an APK (it checks a package's first bytes); answers their
 * SHA-256. */
function writeRandomFile(path: string, bytes: number): string {
  const hash = createHash('sha256');
  const block = 1024 * 1024;
  writeFileSync(path, '');
  for (let written = 0; written < bytes; written += block) {
    const data = randomBytes(Math.min(block, bytes - written));
    if (written === 0) data.write('PK\x03\x04', 'latin1');
    hash.update(data);
    writeFileSync(path, data, { flag: 'a' });
  }
  return hash.digest('hex');
}

interface Stored {
  key: string;
  path: string;
  size: number;
  sha256: string;
}

type UploadOutcome = { ok: true; stored: Stored; seconds: number } | { ok: false; status: number | null; why: string };

/** Streams the file to the admin API; answers what the server stored, or why it did not. */
function upload(url: string, adminToken: string, path: string): Promise<UploadOutcome> {
  const started = performance.now();
  return new Promise((done) => {
    const req = request(`${url}/v1/admin/files?name=bench.apk`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${adminToken}`,
        'content-type': packageType,
        'content-length': statSync(path).size,
      },
    });
    let answered = false;
    req.on('response', (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (response.statusCode !== 201) {
          done({ ok: false, status: response.statusCode ?? null, why: body.slice(0, 300) });
          return;
        }
        try {
          done({ ok: true, stored: JSON.parse(body) as Stored, seconds: (performance.now() - started) / 1000 });
        } catch {
          done({ ok: false, status: 201, why: `the answer is not JSON: ${body.slice(0, 300)}` });
        }
      });
    });
    // A server that refuses early may close the connection while the body is still going out.
    req.on('error', (error) => {
      if (!answered) done({ ok: false, status: null, why: `the upload was cut: ${error.message}` });
    });
    createReadStream(path).pipe(req);
  });
}

interface Download {
  status: number;
  bytes: number;
  sha256: string;
  seconds: number;
  error?: string;
}

/**
 * One download through node:http on its own connection, hashed as it arrives. With a rate, the
 * socket is paused whenever the client is ahead of it: the kernel's buffers fill and the server
 * has to wait, as it does for a phone on a slow network.
 */
function download(url: string, bytesPerSecond: number | undefined, timeoutMs: number): Promise<Download> {
  const started = performance.now();
  return new Promise((done) => {
    const hash = createHash('sha256');
    let bytes = 0;
    let status = 0;
    const finish = (error?: string) => {
      clearTimeout(timer);
      const seconds = (performance.now() - started) / 1000;
      done({ status, bytes, sha256: hash.digest('hex'), seconds, ...(error !== undefined && { error }) });
    };
    const req = request(url, { agent: false });
    const timer = setTimeout(() => req.destroy(new Error(`no end after ${timeoutMs / 1000} s`)), timeoutMs);
    req.on('response', (response: IncomingMessage) => {
      status = response.statusCode ?? 0;
      response.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        bytes += chunk.length;
        if (bytesPerSecond === undefined) return;
        const wait = started + (bytes / bytesPerSecond) * 1000 - performance.now();
        if (wait > 5) {
          response.pause();
          setTimeout(() => response.resume(), wait);
        }
      });
      response.on('end', () => finish());
      response.on('error', (error) => finish(error.message));
    });
    req.on('error', (error) => finish(error.message));
    req.end();
  });
}

interface SlowResult {
  clients: number;
  clientKBps: number;
  seconds: number;
  completed: number;
  failures: { client: number; why: string }[];
  downloadSeconds: { min: number; median: number; max: number };
  rss: { startMB: number; idleMB: number; peakMB: number; peakOverIdleMB: number; endMB: number };
  rssSamples: { t: number; rss: number }[];
  ok: boolean;
}

async function slowClients(fileUrl: string, pid: number, sha256: string, startRss: number): Promise<SlowResult> {
  const sampler = new RssSampler(pid, sampleMs);
  const idle = sampler.read();
  const rate = clientKBps * 1024;
  const expectedMs = (fileBytes / rate) * 1000;
  process.stdout.write(
    `test 1: ${clients} clients at ${clientKBps} KiB/s each (about ${Math.round(expectedMs / 1000)} s)… `,
  );
  sampler.start();
  const started = performance.now();
  const downloads = await Promise.all(
    Array.from({ length: clients }, () => download(fileUrl, rate, expectedMs * 3 + 30_000)),
  );
  const seconds = (performance.now() - started) / 1000;
  const samples = sampler.stop();
  const failures = downloads.flatMap((d, client) => {
    const why =
      d.error ??
      (d.status !== 200
        ? `status ${d.status}`
        : d.bytes !== fileBytes
          ? `${d.bytes} bytes of ${fileBytes}`
          : d.sha256 !== sha256
            ? 'SHA-256 differs'
            : undefined);
    return why === undefined ? [] : [{ client, why }];
  });
  const peak = Math.max(...samples.map((s) => s.rss));
  const times = downloads.map((d) => d.seconds);
  const ok = failures.length === 0 && mb(peak - idle) <= rssGoalMB;
  console.log(ok ? 'ok' : 'FAILED');
  return {
    clients,
    clientKBps,
    seconds: round(seconds),
    completed: clients - failures.length,
    failures,
    downloadSeconds: { min: round(Math.min(...times)), median: round(median(times)), max: round(Math.max(...times)) },
    rss: {
      startMB: mb(startRss),
      idleMB: mb(idle),
      peakMB: mb(peak),
      peakOverIdleMB: mb(peak - idle),
      endMB: mb(samples.at(-1)?.rss ?? NaN),
    },
    rssSamples: samples,
    ok,
  };
}

/** One download by curl to /dev/null: the client costs as little as a client can. */
function curlDownload(url: string): { status: number; bytes: number; seconds: number } {
  const run = spawnSync('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{size_download} %{time_total}', url], {
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`curl ${url} failed: ${run.stderr}`);
  const [status, bytes, seconds] = run.stdout.trim().split(' ').map(Number);
  return { status: status ?? 0, bytes: bytes ?? 0, seconds: seconds ?? NaN };
}

interface Side {
  url: string;
  /** The unmeasured first download, hashed. */
  verified: boolean;
  runsMBps: number[];
  medianMBps: number;
}

async function measure(url: string, sha256: string): Promise<Side> {
  const first = await download(url, undefined, 600_000);
  const verified = first.status === 200 && first.bytes === fileBytes && first.sha256 === sha256;
  if (!verified)
    throw new Error(`${url}: status ${first.status}, ${first.bytes} bytes, ${first.error ?? 'SHA-256 differs'}`);
  return { url, verified, runsMBps: [], medianMBps: NaN };
}

function timedRun(side: Side): void {
  const run = curlDownload(side.url);
  if (run.status !== 200 || run.bytes !== fileBytes) {
    throw new Error(`${side.url}: status ${run.status}, ${run.bytes} bytes of ${fileBytes}`);
  }
  side.runsMBps.push(round(fileBytes / 1024 / 1024 / run.seconds));
}

function printTable(rows: [string, string][]): void {
  const width = Math.max(...rows.map(([name]) => name.length));
  const valueWidth = Math.max(...rows.map(([, value]) => value.length));
  console.log(`| ${'figure'.padEnd(width)} | ${'value'.padEnd(valueWidth)} |`);
  console.log(`|${'-'.repeat(width + 2)}|${'-'.repeat(valueWidth + 2)}|`);
  for (const [name, value] of rows) console.log(`| ${name.padEnd(width)} | ${value.padEnd(valueWidth)} |`);
}

const ensured = spawnSync('bash', [join(repoRoot, 'scripts/ensure-nginx.sh')], { stdio: 'inherit' });
if (ensured.status !== 0) process.exit(1);

const machine = machineFacts();
console.log(
  `bench:files: a ${fileMB} MB package; ${clients} slow clients at ${clientKBps} KiB/s; ${rounds} fast ` +
    `rounds against nginx; Node ${machine.node}, ${machine.cpus} CPU core(s) shared by the server, nginx and the ` +
    `clients; load average now ${machine.loadAverageAtStart.join(' ')}`,
);

const dir = mkdtempSync(join(tmpdir(), 'chat-site-bench-files-'));
// nginx's worker runs as nobody when started by root: it must be able to reach the file.
chmodSync(dir, 0o755);
mkdirSync(join(dir, 'www'));
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
const packagePath = join(dir, 'www', 'bench.apk');
process.stdout.write(`writing ${fileMB} MB of random bytes… `);
const sha256 = writeRandomFile(packagePath, fileBytes);
console.log(sha256);

const server = await startBenchServer([], 'server/dist/server.js', { STORAGE_URL: `file:${join(dir, 'files')}` });
// One worker: see the header of this file.
const nginx = await startNginx(dir, {
  workers: 1,
  http: [
    '  sendfile on;',
    '  tcp_nopush on;',
    `  types { ${packageType} apk; }`,
    '  default_type application/octet-stream;',
  ],
});
let exitCode = 1;
try {
  console.log(`server pid ${server.pid} on ${server.url}; nginx pid ${nginx.pid} on ${nginx.url}`);
  const startRss = new RssSampler(server.pid).read();
  process.stdout.write('uploading… ');
  const uploaded = await upload(server.url, server.adminToken, packagePath);
  const stored = uploaded.ok ? uploaded.stored : undefined;
  const uploadProblem = !uploaded.ok
    ? `the server refused the upload (${uploaded.status ?? 'no answer'}): ${uploaded.why}`
    : stored?.size !== fileBytes || stored.sha256 !== sha256
      ? `the server stored ${stored?.size} bytes with SHA-256 ${stored?.sha256}, not the file sent`
      : undefined;
  console.log(uploaded.ok ? `${round(uploaded.seconds)} s, key ${stored?.key}` : 'REFUSED');
  if (uploadProblem !== undefined) {
    console.log(
      `FAIL: ${uploadProblem}\nThis benchmark needs a server that takes packages of ${fileMB} MB at ` +
        `POST /v1/admin/files, streamed to storage; only nginx is measured below.`,
    );
  }
  // A moment for whatever the upload left behind to settle before "idle" is read.
  await new Promise((done) => setTimeout(done, 2_000));

  const fileUrl = stored === undefined ? undefined : `${server.url}/v1/file/preview/${stored.key}`;
  const slow = fileUrl === undefined ? undefined : await slowClients(fileUrl, server.pid, sha256, startRss);

  process.stdout.write(
    `test 2: ${rounds} fast downloads ${fileUrl === undefined ? 'from nginx' : 'from each, alternately'}… `,
  );
  const nginxSide = await measure(`${nginx.url}/bench.apk`, sha256);
  const serverSide = fileUrl === undefined ? undefined : await measure(fileUrl, sha256);
  for (let i = 0; i < rounds; i++) {
    if (serverSide !== undefined) timedRun(serverSide);
    timedRun(nginxSide);
  }
  for (const side of [nginxSide, serverSide]) if (side !== undefined) side.medianMBps = round(median(side.runsMBps));
  const ratio = serverSide === undefined ? undefined : round(serverSide.medianMBps / nginxSide.medianMBps, 2);
  console.log('done\n');

  const rows: [string, string][] = [['package', `${fileMB} MB, SHA-256 ${sha256.slice(0, 16)}…`]];
  rows.push(['upload', uploadProblem ?? `${round(uploaded.ok ? uploaded.seconds : NaN)} s`]);
  if (slow !== undefined) {
    rows.push(
      ['slow clients', `${slow.completed}/${slow.clients} verified in ${slow.seconds} s`],
      ['download time min/median/max', `${Object.values(slow.downloadSeconds).join(' / ')} s`],
      ['server RSS at start', `${slow.rss.startMB} MB`],
      ['server RSS idle', `${slow.rss.idleMB} MB`],
      ['server RSS peak', `${slow.rss.peakMB} MB`],
      ['peak − idle', `${slow.rss.peakOverIdleMB} MB (goal ≤ ${rssGoalMB})`],
      ['failures', slow.failures.length === 0 ? '0' : slow.failures.map((f) => `#${f.client} ${f.why}`).join('; ')],
    );
  }
  if (serverSide !== undefined)
    rows.push(['server MB/s (median)', `${serverSide.medianMBps} (${serverSide.runsMBps.join(', ')})`]);
  rows.push(['nginx MB/s (median)', `${nginxSide.medianMBps} (${nginxSide.runsMBps.join(', ')})`]);
  if (ratio !== undefined) rows.push(['server / nginx', `${ratio} (goal ≥ ${ratioGoal})`]);
  printTable(rows);

  const unexpected = server.logs.filter((l) => l.trim() !== '');
  if (unexpected.length > 0) {
    console.log(`\nserver logged ${unexpected.length} line(s) at warn or above; first ones:`);
    for (const l of unexpected.slice(0, 5)) console.log(`  ${l.slice(0, 300)}`);
  }
  const report = {
    when: new Date().toISOString(),
    settings: { fileMB, clients, clientKBps, rounds, rssGoalMB, ratioGoal, sampleMs, nginxWorkers: 1 },
    machine: { ...machine, loadAverageAtEnd: loadavg().map((l) => round(l, 2)) },
    note: 'the server, nginx and the clients share the machine; fast downloads use curl to /dev/null',
    serverLogLines: unexpected.length,
    upload: uploaded.ok ? { ok: uploadProblem === undefined, seconds: round(uploaded.seconds), ...stored } : uploaded,
    // One entry per test, named, as the other benchmarks write them; no slow clients without
    // an upload.
    results: [
      ...(slow === undefined ? [] : [{ name: 'slow clients', ...slow }]),
      { name: 'throughput', server: serverSide ?? null, nginx: nginxSide, ratio: ratio ?? null },
    ],
  };
  console.log(`\nresults: ${writeResults('bench-files', report)}`);
  const failed = [
    uploadProblem,
    slow !== undefined && slow.failures.length > 0 && `${slow.failures.length} slow download(s) failed`,
    slow !== undefined && slow.rss.peakOverIdleMB > rssGoalMB && `RSS rose ${slow.rss.peakOverIdleMB} MB over idle`,
    ratio !== undefined && ratio < ratioGoal && `throughput ${ratio} of nginx's`,
  ].filter((why) => typeof why === 'string');
  if (failed.length === 0) {
    console.log(`PASS: every download verified, RSS within ${rssGoalMB} MB of idle, at least ${ratioGoal} of nginx`);
    exitCode = 0;
  } else console.log(`FAIL: ${failed.join('; ')}`);
} finally {
  await nginx.stop();
  await server.stop();
}
process.exit(exitCode);
