/**
 * The alerting rules operators load (deploy/alerts.yml, docs/monitoring.md#alerts) are valid
 * (`promtool check rules`) and fire when they should and only then (`promtool test rules` on
 * deploy/alerts.test.yml). That they name metrics the server really exports is checked on a real
 * scrape by metrics-promtool.test.ts. Skipped, with the reason, where promtool is not installed
 * (scripts/ensure-tools.sh installs it).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from './helpers.js';

const promtool = spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status === 0;
const skip = promtool ? false : 'promtool is not installed (Debian package prometheus; bash scripts/ensure-tools.sh)';
const deploy = join(repoRoot, 'deploy');

function run(...args: string[]) {
  const result = spawnSync('promtool', args, { cwd: deploy, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

test('promtool check rules finds every rule of deploy/alerts.yml valid', { skip }, () => {
  const { status, output } = run('check', 'rules', 'alerts.yml');
  assert.equal(status, 0, output);
  assert.match(output, /SUCCESS: 7 rules found/);
});

test(
  'promtool test rules passes deploy/alerts.test.yml: each alert fires when it should, and only then',
  { skip },
  () => {
    const { status, output } = run('test', 'rules', 'alerts.test.yml');
    assert.equal(status, 0, output);
    assert.match(output, /SUCCESS/);
  },
);
