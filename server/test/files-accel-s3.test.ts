/**
 * FILES_ACCEL_REDIRECT over an S3 store (docs/storage.md#with-s3): the answer's X-Accel-Redirect
 * is the path and query of a presigned URL, and the range, If-Range and 416 are decided here, the
 * one range to fetch going to the proxy in X-Accel-S3-Range. The checks both stores pass are in
 * files-accel-checks.ts; e2e/deploy/files-s3-behind-nginx runs the same through a real nginx. On
 * the test S3 server, on SQLite, or PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { s3Env, startTestS3, testBucket } from '../../testing/s3-server.js';
import { describeAccelRedirect } from './files-accel-checks.js';

const prefix = `accel-${randomBytes(4).toString('hex')}`;

describeAccelRedirect({
  name: 'FILES_ACCEL_REDIRECT over S3',
  async open() {
    const s3 = await startTestS3();
    const lose = async (key: string) => {
      const client = new S3Client({
        region: 'us-east-1',
        endpoint: s3.endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      await client.send(new DeleteObjectCommand({ Bucket: testBucket, Key: `${prefix}/${key}` }));
      client.destroy();
    };
    // s3rver runs until the process ends (testing/s3-server.ts).
    return { env: { ...s3Env(s3, prefix), FILES_ACCEL_REDIRECT: '/internal-s3/' }, lose, close: () => {} };
  },
  // A presigned GET or HEAD of the object, for 60 s.
  checkRedirect(redirect, key, method) {
    const url = new URL(String(redirect), 'http://nginx');
    assert.equal(url.pathname, `/internal-s3/${testBucket}/${prefix}/${key}`, method);
    assert.equal(url.searchParams.get('X-Amz-Expires'), '60', method);
    assert.equal(url.searchParams.get('X-Amz-SignedHeaders'), 'host', method);
    // The SDK marks a GetObject; a HEAD's signature covers its method (the nginx test checks it).
    assert.equal(url.searchParams.get('x-id'), method === 'GET' ? 'GetObject' : null, method);
  },
  ranges: ({ size, etag }) => [
    [{ range: 'bytes=0-0' }, 'bytes=0-0'],
    [{ range: 'bytes=10-' }, `bytes=10-${size - 1}`],
    [{ range: 'bytes=-500' }, `bytes=${size - 500}-${size - 1}`],
    [{ range: 'bytes=100-999999999' }, `bytes=100-${size - 1}`],
    [{ range: 'bytes=10-19', 'if-range': etag }, 'bytes=10-19'],
    [{ range: 'bytes=10-19', 'if-range': '"other"' }, undefined],
    [{ range: 'bytes=0-1,5-6' }, undefined],
    [{ range: `bytes=${size}-` }, 416],
  ],
});
