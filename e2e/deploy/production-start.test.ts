/**
 * A production start needs no development packages: the built tree a deployment ships (the
 * Dockerfile's runtime stage, reproduced by scripts/deploy-check.sh stage) is installed with
 * `npm ci --omit=dev` in a clean directory and started there, with no TypeScript, no tsx, no
 * build tools and no sources. See docs/deploy.md. Needs `npm run build` first.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { BulletinPage } from '@chat-site/contract';
import { freePort } from '../../testing/free-port.js';
import { descendants, running } from '../../testing/process-group.js';
import { call, deployCheck, startProcess, type Running } from './support.js';

let dir = '';

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'chat-site-deploy-'));
  const staged = spawnSync('bash', [deployCheck, 'stage', dir], { encoding: 'utf8' });
  assert.equal(staged.status, 0, staged.stderr);
});

after(() => rmSync(dir, { recursive: true, force: true }));

/** Each start gets its own database and file store inside the shipped tree's data directory. */
let starts = 0;
function dataEnv(): Record<string, string> {
  starts += 1;
  return { DATABASE_URL: `sqlite:./data/site-${starts}.db`, STORAGE_URL: `file:./data/files-${starts}` };
}

/** The server as the image runs it: deploy-check.sh start (NODE_ENV=production, non-root). */
async function startAsImage(env: Record<string, string> = {}): Promise<Running> {
  const port = await freePort();
  return startProcess('bash', [deployCheck, 'start', dir], {
    url: `http://127.0.0.1:${port}`,
    env: { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', ...dataEnv(), ...env },
  });
}

async function bulletinCount(url: string): Promise<number> {
  const answer = await call(`${url}/v1/bulletin/page`);
  assert.equal(answer.status, 200);
  return (JSON.parse(answer.body.toString()) as BulletinPage).count;
}

describe('the production install (npm ci --omit=dev of the built tree)', () => {
  test('holds no development package and no source file', () => {
    for (const devPackage of ['typescript', 'tsx', 'vite', 'esbuild', 'eslint', 's3rver', '@types/node', 'node']) {
      assert.ok(!existsSync(join(dir, 'node_modules', devPackage)), `${devPackage} is not installed`);
    }
    // The site and the console ship as built files: their packages stay out.
    for (const sitePackage of ['react', '@tiptap/core', 'embla-carousel']) {
      assert.ok(!existsSync(join(dir, 'node_modules', sitePackage)), `${sitePackage} is not installed`);
    }
    for (const sources of ['server/src', 'packages/contract/src', 'web/src']) {
      assert.ok(!existsSync(join(dir, sources)), `${sources} is not shipped`);
    }
    assert.ok(existsSync(join(dir, 'node_modules/better-sqlite3')), 'the runtime packages are');
  });

  test('NODE_ENV=production: the page, the API and /healthz answer; an empty database stays empty', async () => {
    const server = await startAsImage();
    try {
      const page = await call(`${server.url}/`);
      assert.equal(page.status, 200);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.match(page.body.toString(), /<html/);
      assert.equal((await call(`${server.url}/v1/ping`)).status, 200);
      assert.equal((await call(`${server.url}/healthz`)).status, 200);
      const admin = await call(`${server.url}/admin`);
      assert.equal(admin.status, 200, 'the console ships too');
      assert.match(admin.body.toString(), /<html/);
      assert.equal(await bulletinCount(server.url), 0, 'no demo content in production');
      if (process.getuid?.() === 0) {
        const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
        assert.match(status, /^Uid:\s+65534\s/m, 'run as nobody, not root');
      }
    } finally {
      assert.equal(await server.stop(), 0, server.logs.join('\n'));
    }
  });

  test('NODE_ENV=production with DEMO_CONTENT=1 loads the demo content, pictures included', async () => {
    const server = await startAsImage({ DEMO_CONTENT: '1' });
    try {
      assert.equal(await bulletinCount(server.url), 12);
      const page = JSON.parse((await call(`${server.url}/v1/bulletin/page`)).body.toString()) as BulletinPage;
      // The demo's pictures come from server/demo-assets, which the image ships.
      const picture = page.list.map((item) => /file\/preview\/[\w.-]+/.exec(item.content)?.[0]).find(Boolean);
      assert.ok(picture !== undefined, 'a demo announcement shows a hosted picture');
      assert.equal((await call(`${server.url}/v1/${picture}`)).status, 200);
    } finally {
      assert.equal(await server.stop(), 0, server.logs.join('\n'));
    }
  });

  test('without NODE_ENV=production an empty database gets the demo content, as before', async () => {
    const port = await freePort();
    const server = await startProcess(process.execPath, ['server/dist/server.js'], {
      cwd: dir,
      url: `http://127.0.0.1:${port}`,
      env: { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', ...dataEnv() },
    });
    try {
      assert.equal(await bulletinCount(server.url), 12);
    } finally {
      assert.equal(await server.stop(), 0, server.logs.join('\n'));
    }
  });

  test('npm start and npm run admin work there with NODE_ENV=production', async () => {
    const port = await freePort();
    const env = {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      WORKERS: '2',
      PORT: String(port),
      HOST: '127.0.0.1',
      ...dataEnv(),
    };
    const server = await startProcess('npm', ['start', '--silent'], { cwd: dir, url: `http://127.0.0.1:${port}`, env });
    const started = descendants(server.child.pid ?? 0);
    try {
      assert.equal(await bulletinCount(server.url), 0);
    } finally {
      await server.stop();
    }
    // npm, its shell, the supervisor and both workers: stopping npm stops every one of them.
    assert.ok(started.length >= 3, `npm start runs the supervisor and two workers: ${started.join(', ')}`);
    assert.deepEqual(started.filter(running), [], 'nothing npm start started is left running');
    const admin = spawnSync('npm', ['run', '--silent', 'admin', '--', 'bulletins', 'list'], {
      cwd: dir,
      env,
      encoding: 'utf8',
    });
    assert.equal(admin.status, 0, admin.stderr);
  });
});
