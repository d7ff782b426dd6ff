/** The audit's calibration of the mobile preset's CPU slowdown (scripts/cpu-calibration.ts):
 * the rule, and a real Lighthouse run on the blank page in Debian's Chromium. Then its gate
 * (scripts/audit-verdict.ts): when the runs made decide the median of all. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LaunchedChrome } from 'chrome-launcher';
import { median, verdictKnown } from '../scripts/audit-verdict.js';
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

describe('the gate, run by run', () => {
  /** Every sequence of `length` scores drawn from `scores`. */
  function* sequences(scores: readonly number[], length: number): Generator<number[]> {
    if (length === 0) {
      yield [];
      return;
    }
    for (const rest of sequences(scores, length - 1)) for (const score of scores) yield [...rest, score];
  }
  // Under, at and over the gate; the median of two may fall between them.
  const scores = [0, 94, 95, 100];
  const min = 95;

  test('runs made decide the median of all only when no later runs could change it', () => {
    for (let runs = 1; runs <= 6; runs += 1) {
      for (let made = 0; made <= runs; made += 1) {
        for (const first of sequences(scores, made)) {
          const verdicts = new Set<boolean>();
          for (const rest of sequences(scores, runs - made)) verdicts.add(median([...first, ...rest]) >= min);
          const where = `${runs} runs, the first ${made} scoring ${first.join(', ')}`;
          if (verdictKnown(first, runs, min)) assert.equal(verdicts.size, 1, where);
          // An odd number of runs has a middle one, and then the rule is exact: as soon as no
          // later run could change the median, it says so. (With an even number the median is the
          // mean of two, which a very low score can decide sooner; the audit makes three.)
          else if (runs % 2 === 1) assert.equal(verdicts.size, 2, where);
        }
      }
    }
  });

  test('with three runs, two that agree decide it and two that disagree do not', () => {
    assert.equal(verdictKnown([100], 3, min), false);
    assert.equal(verdictKnown([100, 95], 3, min), true);
    assert.equal(verdictKnown([94, 0], 3, min), true);
    assert.equal(verdictKnown([100, 94], 3, min), false);
    assert.equal(verdictKnown([100, 94, 96], 3, min), true);
  });
});
