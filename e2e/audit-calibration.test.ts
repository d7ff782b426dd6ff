/** The audit's calibration of the mobile preset's CPU slowdown (scripts/cpu-calibration.ts):
 * the rule, and a real Lighthouse run on the blank page in Debian's Chromium. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LaunchedChrome } from 'chrome-launcher';
import { calibrateCpuSlowdown, defaultCpuSlowdown, slowdownFor } from '../scripts/cpu-calibration.js';
import { launchForLighthouse } from './support/browser.js';

describe('the slowdown for a blank page', () => {
  test("is Lighthouse's 4× where the blank page blocks nothing or fits within 50 ms at 4×", () => {
    assert.equal(slowdownFor([]), defaultCpuSlowdown);
    assert.equal(slowdownFor([0, 0, 0]), defaultCpuSlowdown);
    assert.equal(slowdownFor([11, 12, 10]), defaultCpuSlowdown);
  });

  test('is lowered until the median longest task fits within 50 ms', () => {
    assert.equal(slowdownFor([36.8, 35.6, 32.1]), 1.4);
    assert.equal(slowdownFor([20, 25, 90]), 2);
    for (const tasks of [[13], [17.3, 40, 21], [49.9, 12.6, 30]]) {
      const slowdown = slowdownFor(tasks);
      const median = [...tasks].sort((a, b) => a - b)[Math.floor(tasks.length / 2)] ?? 0;
      assert.ok(median * slowdown <= 50, `${median} ms × ${slowdown}`);
      assert.ok(median * (slowdown + 0.1) > 50, `${slowdown} is the largest such slowdown`);
    }
  });

  test('is never below 1× (no slowdown)', () => {
    assert.equal(slowdownFor([100, 200, 300]), 1);
  });
});

describe('the calibration run', () => {
  let chrome: LaunchedChrome;
  before(async () => {
    chrome = await launchForLighthouse();
  });
  after(() => {
    chrome?.kill();
  });

  test('loads the blank page with Lighthouse and applies the rule to its tasks', async () => {
    const calibration = await calibrateCpuSlowdown(chrome.port, 1);
    assert.equal(calibration.longestTasksMs.length, 1);
    assert.ok(calibration.benchmarkIndex > 0, `benchmarkIndex ${calibration.benchmarkIndex}`);
    assert.ok((calibration.longestTasksMs[0] ?? 0) > 0, 'a page start always has a task');
    assert.equal(calibration.cpuSlowdown, slowdownFor(calibration.longestTasksMs));
  });
});
