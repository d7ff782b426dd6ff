/**
 * FILES_ACCEL_REDIRECT on a directory store (docs/storage.md#nginx-sends-the-files), the setting's
 * first home: the answer's X-Accel-Redirect names the key under /internal-files/, and ranges and
 * If-Range, even one past the end, go on to the proxy as they came. The checks both stores pass
 * are in files-accel-checks.ts; e2e/deploy/files-behind-nginx runs the same through a real nginx.
 * On SQLite, or PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeAccelRedirect } from './files-accel-checks.js';

describeAccelRedirect({
  name: 'FILES_ACCEL_REDIRECT',
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'chat-site-accel-'));
    return {
      env: { STORAGE_URL: `file:${dir}`, FILES_ACCEL_REDIRECT: '/internal-files/' },
      lose: async (key) => unlinkSync(join(dir, key)),
      close: () => rmSync(dir, { recursive: true, force: true }),
    };
  },
  checkRedirect: (redirect, key, method) => assert.equal(redirect, `/internal-files/${key}`, method),
  ranges: ({ size, etag }) => [
    [{ range: 'bytes=0-9' }, undefined],
    [{ range: 'bytes=10-', 'if-range': etag }, undefined],
    [{ range: 'bytes=0-9', 'if-range': '"other"' }, undefined],
    [{ range: `bytes=${size}-` }, undefined],
  ],
});
