import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

// Run with page.evaluate: the pages' CSPs allow no inline <script>.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  help: string;
  nodes: string[];
}

/** axe-core's violations on the page as it is now, one line and its elements each. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Colours that are still easing (a button just disabled, a theme just switched) are measured
  // once they settle; an endless animation (a spinner) is left running.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(`axe
    .run(document, { resultTypes: ['violations'] })
    .then((result) => result.violations.map((v) => ({
      id: v.id,
      help: v.help,
      nodes: v.nodes.map((node) => node.target.join(' ') + ' — ' + node.failureSummary),
    })))`)) as AxeViolation[];
  return violations.map((v) => `${v.id}: ${v.help}\n  ${v.nodes.join('\n  ')}`);
}
