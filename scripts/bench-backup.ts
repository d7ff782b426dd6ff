/**
 * Time and memory of `npm run admin -- backup` and `restore` with one large hosted file
 * (docs/operations.md#backups): stores a package of BENCH_FILE_MB megabytes (default 200) of
 * random bytes with `files upload` into a fresh SQLite file and directory store, backs it up
 * (to a .tar, or a .tar.gz with BENCH_GZIP=1), restores the archive into a second fresh database
 * and store, and checks the restored file's SHA-256. Each command is the built admin bundle as
 * its own process; its peak RSS is the kernel's high-water mark (VmHWM in /proc/<pid>/status),
 * read every 20 ms until it exits, beside that of `files list` for what any command costs.
 *
 *   npm run --silent build && node --conditions=source --import tsx scripts/bench-backup.ts
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { intFromEnv, machineFacts, round, writeResults } from './bench-support.js';
import { repoRoot } from './support/repo-root.js';

const megabytes = intFromEnv('BENCH_FILE_MB', 200, 1, 4096);
const gzip = process.env.BENCH_GZIP === '1';
const work = mkdtempSync(join(tmpdir(), 'chat-site-bench-backup-'));
const admin = join(repoRoot, 'server/dist/admin.js');

interface Measured {
  seconds: number;
  peakRssMb: number;
  stdout: string;
}

/** Runs the admin command line with `env`; answers its time and peak RSS. */
function run(args: string[], env: Record<string, string>): Promise<Measured> {
  const started = performance.now();
  const child = spawn(process.execPath, [admin, ...args], {
    env: { ...process.env, DEMO_CONTENT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let peakKb = 0;
  const sample = () => {
    try {
      const kb = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
      peakKb = Math.max(peakKb, Number(kb ?? 0));
    } catch {
      // exited between two samples
    }
  };
  const timer = setInterval(sample, 20);
  return new Promise((done, fail) =>
    child.once('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) fail(new Error(`admin ${args.join(' ')} exited with ${code}: ${stderr}`));
      else done({ seconds: (performance.now() - started) / 1000, peakRssMb: peakKb / 1024, stdout });
    }),
  );
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

// A zip's magic, then random 1 MiB blocks (each one differs, so gzip cannot shrink them).
const packagePath = join(work, 'big.apk');
const out = createWriteStream(packagePath);
for (let index = 0; index < megabytes; index++) {
  const chunk = randomBytes(1024 * 1024);
  if (index === 0) chunk.set([0x50, 0x4b, 3, 4]);
  if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve));
}
await new Promise((resolve) => out.end(resolve));
const sent = await sha256Of(packagePath);

const source = { DATABASE_URL: `sqlite:${join(work, 'site.db')}`, STORAGE_URL: `file:${join(work, 'files')}` };
const target = { DATABASE_URL: `sqlite:${join(work, 'restored.db')}`, STORAGE_URL: `file:${join(work, 'restored')}` };
const archive = join(work, gzip ? 'site.tar.gz' : 'site.tar');

await run(['demo', 'load'], source);
await run(['files', 'upload', packagePath], source);
// What any command costs: the bundle, the drivers, one database connection.
const baseline = await run(['files', 'list'], source);
const backedUp = await run(['backup', '--to', archive], source);
const restored = await run(['restore', '--from', archive], target);
const [key] = readdirSync(join(work, 'restored')).filter((name) => name.endsWith('-big.apk'));
const back = key === undefined ? '' : await sha256Of(join(work, 'restored', key));

const results = {
  date: new Date().toISOString(),
  machine: machineFacts(),
  fileMb: megabytes,
  archive: gzip ? 'tar.gz' : 'tar',
  archiveMb: round(statSync(archive).size / 1024 / 1024),
  baselinePeakRssMb: round(baseline.peakRssMb),
  backup: { seconds: round(backedUp.seconds, 2), peakRssMb: round(backedUp.peakRssMb) },
  restore: { seconds: round(restored.seconds, 2), peakRssMb: round(restored.peakRssMb) },
  sha256Matches: back === sent,
};
console.log(JSON.stringify(results, null, 2));
console.log(`written to ${writeResults('bench-backup', results)}`);
rmSync(work, { recursive: true, force: true });
process.exit(results.sha256Matches ? 0 : 1);
