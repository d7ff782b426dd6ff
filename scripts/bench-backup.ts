/**
 * Time and memory of `npm run admin -- backup` and `restore` with one large hosted file
 * (docs/backups.md): stores a package of BENCH_FILE_MB megabytes (default 200) of
 * random bytes with `files upload` into a fresh SQLite file and directory store, backs it up
 * (to a .tar, or a .tar.gz with BENCH_GZIP=1), restores the archive into a second fresh database
 * and store, and checks the restored file's SHA-256. Each command is the built admin bundle as
 * its own process; its peak RSS is the kernel's high-water mark (VmHWM in /proc/<pid>/status),
 * read every 20 ms until it exits, beside that of `files list` for what any command costs.
 * BENCH_STORE=s3 keeps the files in an s3rver (the tests' S3 server) started here on 127.0.0.1.
 *
 *   npm run --silent build && node --conditions=source --import tsx scripts/bench-backup.ts
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { intFromEnv, machineFacts, round, writeResults } from './bench-support.js';
import { s3Env, startTestS3, testBucket } from '../testing/s3-server.js';
import { repoRoot } from '../testing/repo-root.js';

const megabytes = intFromEnv('BENCH_FILE_MB', 200, 1, 4096);
const gzip = process.env.BENCH_GZIP === '1';
const s3 = process.env.BENCH_STORE === 's3' ? await startTestS3() : undefined;
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

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Where a command keeps its files: a directory in `work`, or a prefix on the s3rver. */
function storageEnv(name: string): Record<string, string> {
  return s3 === undefined ? { STORAGE_URL: `file:${join(work, name)}` } : s3Env(s3, `${name}/`);
}

/** The bytes of a stored file, read back from the storage itself. */
async function storedFile(env: Record<string, string>, key: string): Promise<Readable> {
  if (s3 === undefined) return createReadStream(join((env.STORAGE_URL ?? '').slice('file:'.length), key));
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const prefix = /^s3:\/\/[^/]+\/(.*)$/.exec(env.STORAGE_URL ?? '')?.[1] ?? '';
  const answer = await client.send(new GetObjectCommand({ Bucket: testBucket, Key: `${prefix}${key}` }));
  return answer.Body as Readable;
}

// A zip's magic, then random 1 MiB blocks (each one differs, so gzip cannot shrink them).
const packagePath = join(work, 'big.apk');
const out = createWriteStream(packagePath);
for (let index = 0; index < megabytes; index++) {
  const chunk = randomBytes(1024 * 1024);
  if (index === 0) chunk.set([0x50, 0x4b, 3, 4]);
  if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
}
await new Promise<void>((resolve) => out.end(() => resolve()));
const sent = await sha256Of(createReadStream(packagePath));

const source = { DATABASE_URL: `sqlite:${join(work, 'site.db')}`, ...storageEnv('files') };
const target = { DATABASE_URL: `sqlite:${join(work, 'restored.db')}`, ...storageEnv('restored') };
const archive = join(work, gzip ? 'site.tar.gz' : 'site.tar');

await run(['demo', 'load'], source);
await run(['files', 'upload', packagePath], source);
// What any command costs: the bundle, the drivers, one database connection.
const baseline = await run(['files', 'list'], source);
const backedUp = await run(['backup', '--to', archive], source);
const restored = await run(['restore', '--from', archive], target);
const listed = JSON.parse((await run(['files', 'list', '--json'], target)).stdout) as { key: string }[];
const key = listed.find((file) => file.key.endsWith('-big.apk'))?.key;
const back = key === undefined ? '' : await sha256Of(await storedFile(target, key));

const results = {
  date: new Date().toISOString(),
  machine: machineFacts(),
  fileMb: megabytes,
  store: s3 === undefined ? 'file' : 's3 (s3rver)',
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
if (s3 !== undefined) rmSync(s3.dir, { recursive: true, force: true });
// The s3rver of BENCH_STORE=s3 would keep the process alive.
process.exit(results.sha256Matches ? 0 : 1);
