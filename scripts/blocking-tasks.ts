/**
 * What Lighthouse's simulated total blocking time is made of, for `npm run audit -- --tbt-tasks`.
 * Lantern replays every main-thread task four times slower; the part of a task beyond 50 ms that
 * falls between the first contentful paint and the time to interactive is blocking time. This
 * prints each task that costs some, as it was observed (unslowed) and what it cost, with what it
 * was busy with: layout (how many layout objects were dirty), style, a script's code, parsing.
 */
import type { RunnerResult } from 'lighthouse';
// Lighthouse's own computed artifact, the one its diagnostics of blocking tasks use.
import { TBTImpactTasks } from 'lighthouse/core/computed/tbt-impact-tasks.js';
import { requestComputed } from './lighthouse-computed.js';

/** The parts of Lighthouse's task tree read here. */
interface Task {
  event: { name: string; args?: { data?: object; beginData?: object } };
  startTime: number;
  duration: number;
  children: Task[];
  parent?: Task | undefined;
  attributableURLs: string[];
}
interface ImpactTask extends Task {
  tbtImpact: number;
}

/** Layout says how much of the page it redid; a script call names the file. */
function describe(task: Task): string {
  const data: Record<string, unknown> = { ...(task.event.args?.beginData ?? task.event.args?.data) };
  if (task.event.name === 'Layout') return `Layout ${String(data.dirtyObjects)}/${String(data.totalObjects)} objects`;
  const url = typeof data.url === 'string' ? data.url.replace(/^.*\//, '') : '';
  return url === '' ? task.event.name : `${task.event.name} ${url}`;
}

/** The events under `task` that took at least `minMs`, depth first, indented by depth. */
function breakdown(task: Task, depth: number, minMs: number): string[] {
  if (depth > 4) return [];
  return task.children
    .filter((child) => child.duration >= minMs)
    .flatMap((child) => [
      `${'  '.repeat(depth + 2)}${child.duration.toFixed(1).padStart(5)} ms  ${describe(child)}`,
      ...breakdown(child, depth + 1, minMs),
    ]);
}

export async function blockingTasks(result: RunnerResult): Promise<string[]> {
  const tasks: ImpactTask[] = await requestComputed(TBTImpactTasks, result);
  const costly = tasks.filter((task) => task.parent === undefined && task.tbtImpact > 0);
  const total = result.lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN;
  const lines = [`simulated TBT ${Math.round(total)} ms, from ${costly.length} task(s):`];
  for (const task of costly) {
    const urls = task.attributableURLs.map((url) => url.replace(/^.*\//, '')).filter((url) => url !== '');
    lines.push(
      `  at ${Math.round(task.startTime)} ms observed, ${task.duration.toFixed(1)} ms long, ` +
        `${Math.round(task.tbtImpact)} ms blocking${urls.length > 0 ? ` (${urls.join(', ')})` : ''}`,
      ...breakdown(task, 0, 2),
    );
  }
  return lines;
}
