/**
 * The audit's gate (scripts/audit.ts): a page passes a category when the median of its runs'
 * scores is at least the minimum. Runs are made one after another, and those made so far can
 * already decide that median, whatever the rest would score (docs/performance.md#the-lighthouse-audit).
 */

export function median(numbers: readonly number[]): number {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * Whether `scores`, the first of `runs` runs, decide whether the median of all `runs` is at least
 * `min`: it is once more than half of them are, and it is not once more than half are under. With
 * three runs, two that agree decide it.
 */
export function verdictKnown(scores: readonly number[], runs: number, min: number): boolean {
  const majority = Math.floor(runs / 2) + 1;
  const passed = scores.filter((score) => score >= min).length;
  return passed >= majority || scores.length - passed >= majority;
}
