/** What a new operator meets before the console (docs/console.md#getting-in): the built
 * server's start-up hint names the DATABASE_URL it uses, the admin command says which database
 * it wrote to, a production install without build tools runs the command with no stack trace,
 * and an old Node.js is told what will work in that install. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { spawnServer } from '../testing/spawn-server.js';
import { repoRoot } from './support/server.js';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'chat-site-newcomer-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const admin = (env: Record<string, string>, cwd: string, node = process.execPath) => {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL'));
  return spawnSync(
    node,
    [join(repoRoot, 'server/dist/admin.js'), 'users', 'add', 'alice', '--role', 'admin', '--password-stdin'],
    {
      cwd,
      env: { ...clean, STORAGE_URL: `file:${join(dir, 'files')}`, ...env },
      input: 'alice-password-1\n',
      encoding: 'utf8',
    },
  );
};

describe('a new operator', () => {
  test("the server's hint gives the DATABASE_URL of its own database", async () => {
    const database = join(dir, 'server.db');
    const server = await spawnServer({
      DATABASE_URL: `sqlite:${database}`,
      STORAGE_URL: `file:${join(dir, 'files')}`,
      SITE_CONFIG: join(repoRoot, 'site.config.json'),
      WORKERS: '1',
    });
    try {
      const hint = await server.logged('no operator accounts yet');
      assert.match(hint, new RegExp(`in the SQLite file ${database}`));
      assert.match(hint, new RegExp(`DATABASE_URL='sqlite:${database}' npm run admin -- users add NAME --role admin`));
    } finally {
      await server.stop();
    }
  });

  test('the admin command says which database it wrote to', () => {
    const named = admin({ DATABASE_URL: `sqlite:${join(dir, 'ops.db')}` }, dir);
    assert.equal(named.status, 0, named.stderr);
    assert.equal(named.stdout.trim(), `added alice (admin) to the SQLite file ${join(dir, 'ops.db')}`);
    // Without DATABASE_URL: the default file, said to be the default.
    const home = join(dir, 'home');
    mkdirSync(home);
    const unnamed = admin({}, home);
    assert.equal(unnamed.status, 0, unnamed.stderr);
    assert.equal(
      unnamed.stdout.trim(),
      `added alice (admin) to the SQLite file ${join(home, 'data/site.db')} (DATABASE_URL is not set: the default)`,
    );
  });

  test('a production install without build tools runs the command with no stack trace', () => {
    // The scripts as they are, in a tree with a build and no node_modules (npm ci --omit=dev).
    const install = join(dir, 'install');
    mkdirSync(join(install, 'scripts'), { recursive: true });
    mkdirSync(join(install, 'server/dist'), { recursive: true });
    for (const script of ['ensure-built.mjs', 'bundle-admin.mjs', 'bundle-vendor.mjs']) {
      copyFileSync(join(repoRoot, 'scripts', script), join(install, 'scripts', script));
    }
    writeFileSync(join(install, 'server/dist/admin.js'), '');
    const built = spawnSync(process.execPath, ['scripts/ensure-built.mjs'], { cwd: install, encoding: 'utf8' });
    assert.equal(built.stderr, '');
    assert.equal(built.status, 0);
    // With no build either, one sentence says what to do.
    rmSync(join(install, 'server/dist/admin.js'));
    const unbuilt = spawnSync(process.execPath, ['scripts/ensure-built.mjs'], { cwd: install, encoding: 'utf8' });
    assert.equal(unbuilt.status, 1);
    assert.doesNotMatch(unbuilt.stderr, /\n\s+at /, 'no stack trace');
    assert.match(unbuilt.stderr, /no build tools \(npm ci --omit=dev\) and no build/);
  });

  test('an old Node.js is told what works in a production install', (t) => {
    // The machine's own Node.js, when it is one the server refuses (20 on this project's hosts).
    const machine = spawnSync('node', ['--version'], { encoding: 'utf8' });
    const major = Number(/^v(\d+)/.exec(machine.stdout ?? '')?.[1] ?? 0);
    if (machine.status !== 0 || major >= 22) return t.skip(`the machine's node is ${machine.stdout}`);
    const refused = admin({ DATABASE_URL: `sqlite:${join(dir, 'old.db')}` }, dir, 'node');
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /an install without them \(npm ci --omit=dev\) has none/);
    assert.doesNotMatch(refused.stderr, /run it through npm \(npm start/);
  });
});
