/**
 * An S3-compatible server for the tests (s3rver, from npm), started in the test process itself on
 * 127.0.0.1 with a throwaway directory; one per test file, shared by its tests, each of which
 * gets its own key prefix.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createRequire } from 'node:module';
import type { Server } from 'node:net';

/** The little of s3rver's API used here (the package ships no types). */
interface S3rverServer {
  run(): Promise<{ address: string; port: number }>;
  /** The listening server, once run() has settled. */
  httpServer: Server;
}
type S3rverClass = new (options: {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string; configs: unknown[] }[];
}) => S3rverServer;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

export const testBucket = 'chat-site-test';

export interface TestS3 {
  endpoint: string;
  /** Where s3rver keeps its objects on disk. */
  dir: string;
}

let started: Promise<TestS3> | undefined;

export function startTestS3(): Promise<TestS3> {
  started ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chat-site-s3rver-'));
    const server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: dir,
      configureBuckets: [{ name: testBucket, configs: [] }],
    });
    const { port } = await server.run();
    // Shared by every test of the process, and never closed: it must not keep the process alive
    // once they are done (the test runner has no --test-force-exit).
    server.httpServer.unref();
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return { endpoint: `http://127.0.0.1:${port}`, dir };
  })();
  return started;
}

/** The settings that point the server at the test S3 server, under `prefix`. */
export function s3Env(s3: TestS3, prefix: string): Record<string, string> {
  return {
    STORAGE_URL: `s3://${testBucket}/${prefix}`,
    S3_ENDPOINT: s3.endpoint,
    S3_FORCE_PATH_STYLE: '1',
    AWS_REGION: 'us-east-1',
    // s3rver's built-in account.
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
  };
}

/** Every object key under a prefix, as S3 lists them. */
export async function s3ObjectsUnder(s3: TestS3, prefix: string): Promise<string[]> {
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  try {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: testBucket, Prefix: prefix }));
    return (listed.Contents ?? []).map((object) => object.Key ?? '');
  } finally {
    client.destroy();
  }
}
