/**
 * What the supervisor of WORKERS processes holds (docs/scaling.md#workers): none of the
 * packages (its modules import only Node's own), and a log in the same JSON as pino's.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { pino } from 'pino';
import { supervisorLogger } from '../src/cluster/log.js';
import { repoRoot } from './helpers.js';

describe('the supervisor', () => {
  test('loads no package: its modules import only Node', () => {
    // The entry (server.js) would start a server if imported; it imports only Node's modules
    // and these, the supervisor's.
    const modules = ['cluster/start.js', 'cluster/supervisor.js', 'cluster/log.js', 'cluster/peers.js'];
    const dist = join(repoRoot, 'server/dist/');
    const script = `
      import { createRequire } from 'node:module';
      for (const file of ${JSON.stringify(modules)}) await import(new URL(file, ${JSON.stringify(pathToFileURL(dist).href)}).href);
      process.stdout.write(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const loaded = JSON.parse(run.stdout) as string[];
    assert.deepEqual(
      loaded.filter((file) => file.includes('node_modules')),
      [],
      'no package in the supervisor',
    );
  });

  test('logs the lines pino would, at the level LOG_LEVEL names', () => {
    const ours: string[] = [];
    const theirs: string[] = [];
    const log = supervisorLogger('info', (line) => void ours.push(line));
    const reference = pino({ level: 'info' }, { write: (line: string) => void theirs.push(line) });
    log.info({ address: 'http://0.0.0.0:8080', workers: 2 }, 'serving on http://localhost:8080');
    reference.info({ address: 'http://0.0.0.0:8080', workers: 2 }, 'serving on http://localhost:8080');
    log.error({ code: null, signal: 'SIGKILL', slot: 1, restartInMs: 250 }, 'a worker died; "starting" another');
    reference.error({ code: null, signal: 'SIGKILL', slot: 1, restartInMs: 250 }, 'a worker died; "starting" another');
    log.info('workers replaced');
    reference.info('workers replaced');
    const withoutTime = (line: string) => line.replace(/"time":\d+/, '"time":0');
    assert.deepEqual(ours.map(withoutTime), theirs.map(withoutTime));

    const quiet: string[] = [];
    const warnOnly = supervisorLogger('warn', (line) => void quiet.push(line));
    warnOnly.info('not written');
    warnOnly.warn({ up: false }, 'written');
    assert.deepEqual(
      quiet.map((line) => (JSON.parse(line) as { msg: string }).msg),
      ['written'],
    );
  });
});
