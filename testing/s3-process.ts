/**
 * s3rver (the tests' S3 emulator, testing/s3-server.ts) as a child process on a free port, with a
 * throwaway directory and the test bucket: for a benchmark whose own event loop is blocked while
 * it times curl (spawnSync), when s3rver in the same process could not answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { testBucket, type TestS3 } from './s3-server.js';
import { freePort } from './free-port.js';
import { spawnGroup } from './process-group.js';

export async function startS3Process(): Promise<TestS3 & { stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'chat-site-s3rver-'));
  const port = await freePort();
  const bin = createRequire(import.meta.url).resolve('s3rver/bin/s3rver.js');
  const args = [bin, '-d', dir, '-a', '127.0.0.1', '-p', String(port), '-s', '--configure-bucket', testBucket];
  const group = spawnGroup(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await group.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  // s3rver prints this line once it listens with the bucket made (its run() has settled).
  const output = group.child.stdout;
  if (output === null) throw new Error('s3rver has no standard output');
  const ready = await new Promise<boolean>((done) => {
    const lines = createInterface({ input: output });
    const timer = setTimeout(() => done(false), 20_000);
    lines.on('line', (line) => {
      if (!line.startsWith('S3rver listening on ')) return;
      clearTimeout(timer);
      done(true);
    });
    group.child.once('exit', () => {
      clearTimeout(timer);
      done(false);
    });
  });
  if (!ready) {
    await stop();
    throw new Error(`s3rver on ${endpoint} did not start within 20 s`);
  }
  return { endpoint, dir, stop };
}
