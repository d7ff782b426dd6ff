/**
 * The container image, built from the real Dockerfile with podman and run: the page, the console,
 * the API, an upload and its download, as the image's own user (uid 1000), and a graceful stop.
 * The base image is made here when it cannot be pulled (scripts/container-base.sh). Needs root
 * and podman; see docs/deploy.md#container-image.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freePort } from '../../testing/free-port.js';
import { call, repoRoot, startProcess, type Running } from './support.js';

const tag = 'localhost/chat-site:test';
const containerCheck = join(repoRoot, 'scripts/container-check.sh');
const adminToken = 'container-test-token-0123456789abcdef';

const root = process.getuid?.() === 0;
const tools = root && spawnSync('bash', [join(repoRoot, 'scripts/ensure-tools.sh')], { stdio: 'inherit' }).status === 0;
const skip = !root ? 'needs root to run podman' : !tools ? 'podman could not be installed' : false;

let server: Running | undefined;
let name = '';

/** What `podman inspect` says of the running container. */
function inspect(format: string): string {
  return spawnSync('podman', ['inspect', '--format', format, name], { encoding: 'utf8' }).stdout.trim();
}

before(async () => {
  if (skip !== false) return;
  const built = spawnSync('bash', [containerCheck, 'build', tag], {
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  assert.equal(built.status, 0, built.stderr.slice(-4000));
  const port = await freePort();
  name = `chat-site-check-${port}`;
  server = await startProcess('bash', [containerCheck, 'run', tag, String(port)], {
    url: `http://127.0.0.1:${port}`,
    env: { ...process.env, ADMIN_TOKEN: adminToken },
  });
});

after(async () => {
  await server?.stop();
  // The container runs under conmon, outside podman's process group: remove it by name.
  if (name !== '') spawnSync('podman', ['rm', '--force', '--ignore', name], { stdio: 'ignore' });
});

describe('the container image (podman, from the Dockerfile)', { skip }, () => {
  test('serves the page, the console and the API', async () => {
    const url = server?.url ?? '';
    const page = await call(`${url}/`);
    assert.equal(page.status, 200);
    assert.match(page.body.toString(), /<html/);
    const admin = await call(`${url}/admin`);
    assert.equal(admin.status, 200, 'the console is in the image');
    assert.match(admin.body.toString(), /<html/);
    assert.equal((await call(`${url}/healthz`)).status, 200);
    assert.equal((await call(`${url}/v1/ping`)).status, 200);
  });

  test('an install package uploaded through the API downloads byte for byte', async () => {
    const url = server?.url ?? '';
    const bytes = Buffer.concat([Buffer.from('MZ'), randomBytes(3 * 1024 * 1024)]);
    const posted = await fetch(`${url}/v1/admin/files?name=chat-setup.exe`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    assert.equal(posted.status, 201, await posted.clone().text());
    const { path, sha256 } = (await posted.json()) as { path: string; sha256: string };
    assert.equal(sha256, createHash('sha256').update(bytes).digest('hex'));
    const fetched = await call(`${url}/v1/${path}`);
    assert.equal(fetched.status, 200);
    assert.equal(createHash('sha256').update(fetched.body).digest('hex'), sha256);
  });

  test('runs as the image user, uid 1000, not root', () => {
    const pid = inspect('{{.State.Pid}}');
    assert.match(pid, /^\d+$/, 'the container runs');
    assert.match(readFileSync(`/proc/${pid}/status`, 'utf8'), /^Uid:\s+1000\s/m);
    // node itself, with the compiler setting a single process needs (docs/deploy.md).
    assert.match(
      readFileSync(`/proc/${pid}/cmdline`, 'utf8'),
      /^node\0--no-concurrent-recompilation\0server\/dist\/server\.js\0/,
    );
  });

  test('stops gracefully on SIGTERM (docker stop)', async () => {
    assert.equal(await server?.stop('SIGTERM'), 0);
    server = undefined;
  });
});
