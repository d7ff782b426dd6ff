/**
 * Hosted files sent by the recommended nginx from the server's directory store, the server
 * running with FILES_ACCEL_REDIRECT=/internal-files/ (docs/storage.md#nginx-sends-the-files):
 * nginx reads the directory itself (scripts/deploy-check.sh nginx with FILES_DIR) and does the
 * ranges and If-Range. The checks both stores pass are in file-checks.ts. Needs `npm run build`
 * first.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describeFilesBehindNginx } from './file-checks.js';

describeFilesBehindNginx({
  name: 'hosted files behind deploy/nginx.conf with FILES_ACCEL_REDIRECT',
  async open(dir) {
    const filesDir = join(dir, 'files');
    return {
      env: { STORAGE_URL: `file:${filesDir}`, FILES_ACCEL_REDIRECT: '/internal-files/' },
      nginx: { filesDir },
      close: async () => {},
    };
  },
  checkRedirect: (redirect, key) => assert.equal(redirect, `/internal-files/${key}`),
  ranges: (size) => [
    ['bytes=0-0', 0, 0],
    ['bytes=1000-1999', 1000, 1999],
    ['bytes=3000000-', 3_000_000, size - 1],
    ['bytes=-500', size - 500, size - 1],
  ],
});
