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
 *    (default 5) times from each of: Debian's nginx serving the same file from disk (the
 *    reference), the server directly, the server behind the recommended nginx
 *    (deploy/nginx.conf) and the same behind it with FILES_ACCEL_REDIRECT, by turns, after one
 *    unmeasured download from each whose SHA-256 is checked. Reported: the median MB/s of each
 *    and its ratio to nginx's; the direct server should reach 0.6 and the redirected one 0.9
 *    (behind nginx without the setting is a reference, with no goal). Last, a server on an S3
 *    store (s3rver, in a child process) behind nginx with FILES_ACCEL_REDIRECT=/internal-s3/:
 *    nginx fetches from s3rver, a Node.js emulator far slower than a real store, so a reference
 *    that shows the path works, with no goal.
 *
 * The reference nginx runs as a child of this script on its own config in a temporary directory
 * (daemon off, sendfile on, one worker: the server is one process with one JavaScript thread, and
 * on a two-core machine a second worker would only take a core from curl); the recommended ones
 * through scripts/deploy-check.sh nginx, one worker too. A second server, with
 * FILES_ACCEL_REDIRECT and a store of its own, is uploaded the same package. nginx and curl are
 * installed from Debian by scripts/ensure-nginx.sh when missing. Only 127.0.0.1 is contacted.
 *
 * Results are printed as a table and written to .tmp/bench-files.json, or to the file
 * BENCH_RESULTS names. Exits 0 when every figure meets its goal, 1 when one does not or the server
 * refused the upload (nginx is still measured then), 2 on a bad setting.
 * See docs/storage.md#benchmarking-file-downloads.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
import { curlDownload, download, packageType, upload, writeRandomFile } from '../testing/file-transfer.js';
import { startRecommendedNginx } from '../testing/recommended-nginx.js';
import { startS3Process } from '../testing/s3-process.js';
import { s3Env } from '../testing/s3-server.js';
import { repoRoot } from '../testing/repo-root.js';

const fileMB = intFromEnv('BENCH_FILE_MB', 100, 1, 2048);
const clients = intFromEnv('BENCH_CLIENTS', 40, 1, 500);
const clientKBps = intFromEnv('BENCH_CLIENT_KBPS', 3072, 16, 1_048_576);
const rounds = intFromEnv('BENCH_ROUNDS', 5, 1, 50);
const fileBytes = fileMB * 1024 * 1024;
const rssGoalMB = 100;
const sampleMs = 250;

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const median = (values: number[]) => {
  const sorted = values.toSorted((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
};

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

/** One way of getting the file, measured by turns with the others. */
interface Side {
  name: string;
  url: string;
  /** The least ratio to nginx's MB/s it must reach; none for a reference. */
  goal: number | null;
  runsMBps: number[];
  medianMBps: number;
  ratio: number | null;
}

/** The unmeasured first download, hashed: every side must give the file as it is. */
async function verified(name: string, url: string, sha256: string, goal: number | null): Promise<Side> {
  const first = await download(url, undefined, 600_000);
  if (first.status !== 200 || first.bytes !== fileBytes || first.sha256 !== sha256)
    throw new Error(
      `${name} ${url}: status ${first.status}, ${first.bytes} bytes, ${first.error ?? 'SHA-256 differs'}`,
    );
  return { name, url, goal, runsMBps: [], medianMBps: NaN, ratio: null };
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
    `rounds against nginx; Node ${machine.node}, ${machine.cpus} CPU core(s) shared by the servers, nginx and the ` +
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
const accelFiles = join(dir, 'files-accel');
// Made here (as the server would, 0700) for nginx to be pointed at it before the upload.
mkdirSync(accelFiles, { mode: 0o700 });
const accelServer = await startBenchServer([], 'server/dist/server.js', {
  STORAGE_URL: `file:${accelFiles}`,
  FILES_ACCEL_REDIRECT: '/internal-files/',
});
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
const proxy = await startRecommendedNginx(new URL(server.url).host);
const accelProxy = await startRecommendedNginx(new URL(accelServer.url).host, { filesDir: accelFiles });
const s3 = await startS3Process();
const s3Server = await startBenchServer([], 'server/dist/server.js', {
  ...s3Env(s3, 'bench-files'),
  FILES_ACCEL_REDIRECT: '/internal-s3/',
});
const s3Proxy = await startRecommendedNginx(new URL(s3Server.url).host, { s3Upstream: new URL(s3.endpoint).host });
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
  const accelUploaded =
    stored === undefined ? undefined : await upload(accelServer.url, accelServer.adminToken, packagePath);
  const s3Uploaded = stored === undefined ? undefined : await upload(s3Server.url, s3Server.adminToken, packagePath);
  // A moment for whatever the upload left behind to settle before "idle" is read.
  await new Promise((done) => setTimeout(done, 2_000));

  const filePath = stored === undefined ? undefined : `/v1/file/preview/${stored.key}`;
  const slow =
    filePath === undefined ? undefined : await slowClients(`${server.url}${filePath}`, server.pid, sha256, startRss);

  process.stdout.write(`test 2: ${rounds} fast downloads from each, by turns… `);
  const sides = [await verified('nginx', `${nginx.url}/bench.apk`, sha256, null)];
  if (filePath !== undefined) {
    sides.push(
      await verified('server direct', `${server.url}${filePath}`, sha256, 0.6),
      await verified('server behind nginx', `${proxy.url}${filePath}`, sha256, null),
    );
    if (accelUploaded?.ok === true)
      sides.push(await verified('server behind nginx, X-Accel-Redirect', `${accelProxy.url}${filePath}`, sha256, 0.9));
    if (s3Uploaded?.ok === true)
      sides.push(await verified('S3 behind nginx, X-Accel-Redirect', `${s3Proxy.url}${filePath}`, sha256, null));
  }
  for (let i = 0; i < rounds; i++) for (const side of sides) timedRun(side);
  const reference = sides[0] as Side;
  for (const side of sides) {
    side.medianMBps = round(median(side.runsMBps));
    if (side !== reference) side.ratio = round(side.medianMBps / median(reference.runsMBps), 2);
  }
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
  for (const side of sides) {
    rows.push([`${side.name} MB/s (median)`, `${side.medianMBps} (${side.runsMBps.join(', ')})`]);
    if (side.ratio !== null)
      rows.push([
        `${side.name} / nginx`,
        `${side.ratio} (${side.goal === null ? 'reference' : `goal ≥ ${side.goal}`})`,
      ]);
  }
  printTable(rows);

  const unexpected = [...server.logs, ...accelServer.logs, ...s3Server.logs].filter((l) => l.trim() !== '');
  if (unexpected.length > 0) {
    console.log(`\nthe servers logged ${unexpected.length} line(s) at warn or above; first ones:`);
    for (const l of unexpected.slice(0, 5)) console.log(`  ${l.slice(0, 300)}`);
  }
  const report = {
    when: new Date().toISOString(),
    settings: { fileMB, clients, clientKBps, rounds, rssGoalMB, sampleMs, nginxWorkers: 1 },
    machine: { ...machine, loadAverageAtEnd: loadavg().map((l) => round(l, 2)) },
    note: 'the servers, nginx and the clients share the machine; fast downloads use curl to /dev/null',
    serverLogLines: unexpected.length,
    upload: uploaded.ok ? { ok: uploadProblem === undefined, seconds: round(uploaded.seconds), ...stored } : uploaded,
    // One entry per test, named, as the other benchmarks write them; no slow clients without
    // an upload.
    results: [...(slow === undefined ? [] : [{ name: 'slow clients', ...slow }]), { name: 'throughput', sides }],
  };
  console.log(`\nresults: ${writeResults('bench-files', report)}`);
  const failed = [
    uploadProblem,
    accelUploaded?.ok === false && `the X-Accel-Redirect server refused the upload: ${accelUploaded.why}`,
    s3Uploaded?.ok === false && `the S3 server refused the upload: ${s3Uploaded.why}`,
    slow !== undefined && slow.failures.length > 0 && `${slow.failures.length} slow download(s) failed`,
    slow !== undefined && slow.rss.peakOverIdleMB > rssGoalMB && `RSS rose ${slow.rss.peakOverIdleMB} MB over idle`,
    ...sides.map(
      (side) =>
        side.goal !== null &&
        (side.ratio ?? 0) < side.goal &&
        `${side.name}: ${side.ratio} of nginx's, under ${side.goal}`,
    ),
  ].filter((why) => typeof why === 'string');
  if (failed.length === 0) {
    console.log(`PASS: every download verified, RSS within ${rssGoalMB} MB of idle, every ratio at its goal`);
    exitCode = 0;
  } else console.log(`FAIL: ${failed.join('; ')}`);
} finally {
  await s3Proxy.stop();
  await s3Server.stop();
  await s3.stop();
  await accelProxy.stop();
  await proxy.stop();
  await nginx.stop();
  await accelServer.stop();
  await server.stop();
}
process.exit(exitCode);
