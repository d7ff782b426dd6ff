/**
 * How scripts/bench-files.ts moves a package: written as random bytes, uploaded through the
 * admin API as an operator would, and downloaded by node:http (hashed, optionally at a phone's
 * pace) or by curl to /dev/null.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, statSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';

export const packageType = 'application/vnd.android.package-archive';

/** Random bytes, so that nothing on the way can compress them, behind a zip's signature, so
 * that the server takes them as an APK (it checks a package's first bytes); answers their
 * SHA-256. */
export function writeRandomFile(path: string, bytes: number): string {
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

export interface Stored {
  key: string;
  path: string;
  size: number;
  sha256: string;
}

export type UploadOutcome =
  { ok: true; stored: Stored; seconds: number } | { ok: false; status: number | null; why: string };

/** Streams the file to the admin API; answers what the server stored, or why it did not. */
export function upload(url: string, adminToken: string, path: string): Promise<UploadOutcome> {
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

export interface Download {
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
export function download(url: string, bytesPerSecond: number | undefined, timeoutMs: number): Promise<Download> {
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

/** One download by curl to /dev/null: the client costs as little as a client can. */
export function curlDownload(url: string): { status: number; bytes: number; seconds: number } {
  const run = spawnSync('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{size_download} %{time_total}', url], {
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`curl ${url} failed: ${run.stderr}`);
  const [status, bytes, seconds] = run.stdout.trim().split(' ').map(Number);
  return { status: status ?? 0, bytes: bytes ?? 0, seconds: seconds ?? NaN };
}
