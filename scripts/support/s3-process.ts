/**
 * s3rver (the tests' S3 emulator, scripts/s3-server.ts) as a child process on a free port, with a
 * throwaway directory and the test bucket: for a benchmark whose own event loop is blocked while
 * it times curl (spawnSync), when s3rver in the same process could not answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testBucket, type TestS3 } from '../s3-server.js';
import { freePort } from './free-port.js';
import { spawnGroup } from './process-group.js';

export async function startS3Process(): Promise<TestS3 & { stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'chat-site-s3rver-'));
  const port = await freePort();
  const bin = createRequire(import.meta.url).resolve('s3rver/bin/s3rver.js');
  const args = [bin, '-d', dir, '-a', '127.0.0.1', '-p', String(port), '-s', '--configure-bucket', testBucket];
  const group = spawnGroup(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await group.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  // Ready once the bucket answers, whatever it answers.
  for (let attempt = 0; ; attempt++) {
    if (group.child.exitCode !== null) throw new Error('s3rver did not start');
    try {
      await fetch(`${endpoint}/${testBucket}`);
      break;
    } catch {
      // not listening yet
    }
    if (attempt > 200) {
      await stop();
      throw new Error(`s3rver on ${endpoint} did not answer within 20 s`);
    }
    await new Promise((wait) => setTimeout(wait, 100));
  }
  return { endpoint, dir, stop };
}
