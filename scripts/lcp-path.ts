/**
 * What Lighthouse's simulated LCP is made of, for `npm run audit -- --lcp-path`. Lighthouse does
 * not time a slow phone: it records a fast load, builds a graph of its requests and main-thread
 * tasks, and replays that graph on a simulated network (150 ms round trips, 1.6 Mbps shared by
 * every request in flight, at most six connections to one origin) and a CPU four times slower
 * ("Lantern"). This prints, in the order they start, each request in the graph its LCP waited
 * for, with its simulated start and end, and the main-thread time in that graph: the chain to
 * shorten when the LCP is too late.
 */
import type { RunnerResult } from 'lighthouse';
// Lighthouse's own computed artifact, the one its LCP audit uses.
import { LanternLargestContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js';
import { requestComputed } from './lighthouse-computed.js';

/** The parts of Lantern's graph nodes read here. */
interface SimulatedNode {
  type: 'network' | 'cpu';
  request?: { url: string; priority: string; transferSize: number };
  duration: number;
}
interface Estimate {
  timeInMs: number;
  nodeTimings: Map<SimulatedNode, { startTime: number; endTime: number }>;
}

export async function lcpPath(result: RunnerResult): Promise<string[]> {
  const { artifacts } = result;
  const lcp = await requestComputed(LanternLargestContentfulPaint, result);
  // Lighthouse reports the mean of an optimistic and a pessimistic graph; the pessimistic one
  // waits for every request that started before the LCP, so it shows the whole chain.
  const estimate = (lcp as unknown as { pessimisticEstimate: Estimate }).pessimisticEstimate;
  const timings = [...estimate.nodeTimings].sort(([, a], [, b]) => a.startTime - b.startTime);
  const origin = new URL(artifacts.URL.finalDisplayedUrl).origin;
  const lines = [`simulated LCP ${Math.round(lcp.timing)} ms (pessimistic graph ${Math.round(estimate.timeInMs)} ms):`];
  let cpu = 0;
  for (const [node, { startTime, endTime }] of timings) {
    if (node.type === 'cpu') {
      cpu += endTime - startTime;
      continue;
    }
    const { url, priority, transferSize } = node.request ?? { url: '?', priority: '?', transferSize: 0 };
    const name = url.startsWith(origin) ? url.slice(origin.length) : url;
    lines.push(
      `  ${String(Math.round(startTime)).padStart(5)} → ${String(Math.round(endTime)).padStart(5)} ms` +
        `  ${(transferSize / 1024).toFixed(1).padStart(5)} KB  ${priority.padEnd(8)} ${name.slice(0, 70)}`,
    );
  }
  lines.push(`  main thread in this graph: ${Math.round(cpu)} ms (already slowed down four times)`);
  return lines;
}
