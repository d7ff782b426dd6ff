/**
 * Hosted files on an S3 store sent by the recommended nginx (scripts/deploy-check.sh nginx with
 * S3_UPSTREAM), the server running with FILES_ACCEL_REDIRECT=/internal-s3/
 * (docs/storage.md#with-s3): the server checks and counts, then nginx fetches the object from
 * the store with the short-lived presigned URL the server gave it. The store is s3rver behind a
 * recording front (s3-front.ts), so the checks both stores pass (file-checks.ts) also see what
 * reached it; here, what only S3 has: the signature, none of the visitor's headers at the store,
 * and the store's refusal. Needs `npm run build` first.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { s3Env, startTestS3, testBucket } from '../../testing/s3-server.js';
import { signatureHolds, startS3Front, type S3Front } from './s3-front.js';
import { describeFilesBehindNginx } from './file-checks.js';

const prefix = 'files-s3-behind-nginx';
// s3rver's built-in account, the server's S3 credentials (testing/s3-server.ts).
const s3rverKeys = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
let front: S3Front;

describeFilesBehindNginx(
  {
    name: 'hosted files on S3 behind deploy/nginx.conf with FILES_ACCEL_REDIRECT',
    async open(dir) {
      front = await startS3Front((await startTestS3()).endpoint);
      return {
        env: { ...s3Env({ endpoint: front.endpoint, dir }, prefix), FILES_ACCEL_REDIRECT: '/internal-s3/' },
        nginx: { s3Upstream: new URL(front.endpoint).host },
        arrivals: front.presigned,
        signed: (arrival) => signatureHolds(arrival, s3rverKeys),
        close: () => front.close(),
      };
    },
    checkRedirect(redirect, key) {
      assert.match(redirect, new RegExp(`^/internal-s3/${testBucket}/${prefix}/${key}\\?`));
      assert.match(redirect, /[?&]X-Amz-Expires=60(&|$)/);
    },
    // s3rver reads an end of 0 as "to the end", so the first byte alone is not asked for here.
    ranges: (size) => [
      ['bytes=0-1', 0, 1],
      ['bytes=1000-1999', 1000, 1999],
      ['bytes=3000000-', 3_000_000, size - 1],
      ['bytes=-500', size - 500, size - 1],
    ],
  },
  (viaNginx) => {
    test('the store gets a correctly signed request for the one host, and none of the visitor’s headers', async () => {
      await viaNginx({ cookie: 'session=secret', authorization: 'Bearer visitor', 'if-none-match': '"other"' });
      const arrival = front.presigned.at(-1);
      assert.ok(arrival !== undefined);
      assert.equal(arrival.headers.host, new URL(front.endpoint).host);
      for (const name of ['cookie', 'authorization', 'if-none-match', 'if-range', 'x-forwarded-for']) {
        assert.equal(arrival.headers[name], undefined, name);
      }
      assert.ok(await signatureHolds(arrival, s3rverKeys));
      const elsewhere = { ...arrival, headers: { ...arrival.headers, host: 'attacker.example:80' } };
      assert.equal(await signatureHolds(elsewhere, s3rverKeys), false, 'the signature covers the host');
    });

    test('a refusal from the store is a 502 from nginx, without the store’s error', async () => {
      front.refuseNext();
      const answer = await viaNginx();
      assert.equal(answer.status, 502);
      assert.doesNotMatch(answer.body.toString(), /S3RVER|SignatureDoesNotMatch/);
      assert.equal((await viaNginx()).status, 200);
    });
  },
);
