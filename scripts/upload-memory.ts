/**
 * The server's memory while it receives one large upload: starts the built server (directory
 * storage by default, STORAGE_URL to change it), streams a package of UPLOAD_MB megabytes
 * (default 500) to POST /v1/admin/files generated on the fly, samples the server's RSS from
 * /proc every 50 ms, then downloads the file back and checks its SHA-256. UPLOAD_STORE=s3 runs
 * it against an s3rver (the tests' S3 server) started here on 127.0.0.1.
 *
 *   npm run --silent build && node --conditions=source --import tsx scripts/upload-memory.ts
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { s3Env, startTestS3 } from '../testing/s3-server.js';
import { repoRoot } from '../testing/repo-root.js';
import { spawnServer } from '../testing/spawn-server.js';

const megabytes = Number(process.env.UPLOAD_MB ?? 500);
const token = 'upload-memory-token-0123456789abcdef';
const work = mkdtempSync(join(tmpdir(), 'chat-site-upload-memory-'));

const s3 = process.env.UPLOAD_STORE === 's3' ? await startTestS3() : undefined;
const storageEnv = s3 !== undefined ? s3Env(s3, 'upload-memory') : { STORAGE_URL: `file:${join(work, 'files')}` };

const server = await spawnServer({
  DATABASE_URL: `sqlite:${join(work, 'site.db')}`,
  ...storageEnv,
  SITE_CONFIG: join(repoRoot, 'site.config.json'),
  ADMIN_TOKEN: token,
  DEMO_CONTENT: '0',
  PACKAGE_MAX_BYTES: String(2 * 1024 * 1024 * 1024),
  REQUEST_TIMEOUT_MS: '3600000',
});
const { child, url: base } = server;

const rssMb = () => {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
};
await new Promise((done) => setTimeout(done, 1000));
const idle = rssMb();
let peak = idle;
const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 50);

// A zip's magic, then pseudo-random 1 MiB blocks (each one differs, so nothing compresses).
const block = randomBytes(1024 * 1024);
const hash = createHash('sha256');
function* body() {
  for (let index = 0; index < megabytes; index++) {
    const chunk = Buffer.from(block);
    chunk.writeUInt32BE(index, 8);
    if (index === 0) chunk.set([0x50, 0x4b, 3, 4]);
    hash.update(chunk);
    yield chunk;
  }
}
const started = Date.now();
const answer = await new Promise<{ status: number; text: string }>((done, fail) => {
  const upload = request(
    `${base}/v1/admin/files?name=big.apk`,
    {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/vnd.android.package-archive',
        'content-length': String(megabytes * 1024 * 1024),
      },
    },
    (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, text }));
    },
  );
  upload.on('error', fail);
  Readable.from(body()).pipe(upload);
});
const seconds = (Date.now() - started) / 1000;
clearInterval(sampler);
const sent = hash.digest('hex');
const { path, sha256 } = JSON.parse(answer.text) as { path: string; sha256: string };

const download = createHash('sha256');
const res = await fetch(`${base}/v1/${path}`);
if (res.body === null) throw new Error('empty download');
for await (const chunk of res.body) download.update(chunk);
const back = download.digest('hex');

console.log(
  JSON.stringify(
    {
      store: storageEnv.STORAGE_URL?.split(':')[0],
      uploaded_mb: megabytes,
      status: answer.status,
      seconds,
      rss_idle_mb: Math.round(idle),
      rss_peak_mb: Math.round(peak),
      rss_growth_mb: Math.round(peak - idle),
      sha256_matches: sha256 === sent && back === sent,
    },
    null,
    2,
  ),
);
await server.stop();
rmSync(work, { recursive: true, force: true });
if (s3 !== undefined) rmSync(s3.dir, { recursive: true, force: true });
// The s3rver of UPLOAD_STORE=s3 would keep the process alive.
process.exit(answer.status === 201 && sha256 === sent && back === sent ? 0 : 1);
