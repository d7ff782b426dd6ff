/**
 * Calibrates the mobile preset's CPU slowdown to the machine the audit runs on, as Lighthouse's
 * throttling guide asks of a host that is not the fast desktop its 4× assumes.
 *
 * Lighthouse's own measure of the host (benchmarkIndex) times a JavaScript loop. What the blocking
 * time of a page is made of is mostly the browser's own work: creating the page's script context,
 * the first layout of its CJK text, painting. On some virtual machines that work is several times
 * slower than the loop suggests, and then even a blank page has blocking time under 4×. So the
 * audit first loads a blank page (one line of Chinese text) with the mobile preset and takes its
 * longest main-thread task (mostly the browser creating the page's script context): on a phone
 * of the kind the preset stands for, a blank page has no long task, so the slowdown is lowered
 * until the median of those tasks fits within the 50 ms a task may take, and never raised above
 * Lighthouse's 4×. A machine that starts a blank page within 12.5 ms keeps 4×, the preset
 * unchanged.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import lighthouse, { type Flags, type RunnerResult } from 'lighthouse';
import { MainThreadTasks } from 'lighthouse/core/computed/main-thread-tasks.js';

/** Lighthouse's mobile preset. */
export const defaultCpuSlowdown = 4;
/** A task longer than this (simulated) is a long task; the part beyond it is blocking time. */
const longTaskMs = 50;

const blankPage = `<!doctype html>
<html lang="zh-CN">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="description" content="校准页" />
    <title>校准页</title>
  </head>
  <body>
    <h1>你好，世界</h1>
  </body>
</html>
`;

/** The longest top-level main-thread task of the page's load, as observed (unslowed), from
 * Lighthouse's own task tree of the trace. */
async function longestTaskMs(result: RunnerResult): Promise<number> {
  const tasks = await MainThreadTasks.request(result.artifacts.Trace, { computedCache: new Map() } as never);
  return Math.max(
    0,
    ...tasks.filter((task) => task.parent === undefined && task.startTime >= 0).map((task) => task.duration),
  );
}

export interface Calibration {
  /** The slowdown to simulate the mobile preset with. */
  cpuSlowdown: number;
  /** The blank page's longest task in each run (ms, observed). */
  longestTasksMs: number[];
  /** Lighthouse's benchmarkIndex of the machine, from the first run. */
  benchmarkIndex: number;
}

export async function calibrateCpuSlowdown(port: number, runs: number): Promise<Calibration> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(blankPage);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  // Only the trace is needed, and the task measured is the page's first: so one cheap audit of it,
  // and none of the quiet periods Lighthouse waits for after the load to catch later work (about
  // 4 s a run). Seven runs take 29 s, not 50 (docs/performance.md#cpu-calibration).
  const flags: Flags = {
    port,
    logLevel: 'error',
    onlyAudits: ['main-thread-tasks'],
    output: 'json',
    pauseAfterFcpMs: 0,
    pauseAfterLoadMs: 0,
    networkQuietThresholdMs: 0,
    cpuQuietThresholdMs: 0,
  };
  const longestTasksMs: number[] = [];
  let benchmarkIndex = Number.NaN;
  try {
    for (let run = 0; run < runs; run += 1) {
      const result = await lighthouse(url, flags);
      if (result === undefined || result.lhr.runtimeError !== undefined) {
        throw new Error(
          `calibration: Lighthouse failed on the blank page (${result?.lhr.runtimeError?.code ?? 'no result'})`,
        );
      }
      if (run === 0) benchmarkIndex = result.lhr.environment.benchmarkIndex;
      longestTasksMs.push(await longestTaskMs(result));
    }
  } finally {
    // Chromium keeps its connection open; close would wait for it.
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  return { cpuSlowdown: slowdownFor(longestTasksMs), longestTasksMs, benchmarkIndex };
}

/** The slowdown at which the median of a blank page's longest tasks (observed ms) fits
 * within a long task: to one decimal, rounded down, from 1× (no slowdown) to Lighthouse's 4×. */
export function slowdownFor(longestTasksMs: number[]): number {
  const sorted = [...longestTasksMs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  if (median <= 0) return defaultCpuSlowdown;
  return Math.min(defaultCpuSlowdown, Math.max(1, Math.floor((longTaskMs / median) * 10) / 10));
}
