/**
 * For scripts/bench-floods.ts: a client that asks for `/v1/ping` one request after another while
 * a flood runs, and the figures of what it saw; loops that repeat a request; addresses to send
 * as X-Forwarded-For, so that each request of a flood comes from a client of its own.
 */
import { round } from '../scripts/bench-support.js';

export interface Latencies {
  count: number;
  /** Requests that got no answer (the connection refused or reset). */
  failed?: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function latencies(ms: number[]): Latencies {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (share: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? NaN);
  return { count: sorted.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: round(sorted.at(-1) ?? NaN) };
}

/** Asks for `url` one request after another, `pauseMs` apart, until `stop` is called. */
export function pinger(url: string, pauseMs = 10) {
  const ms: number[] = [];
  let failed = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      const start = performance.now();
      try {
        await (await fetch(url)).arrayBuffer();
        ms.push(performance.now() - start);
      } catch {
        failed++;
      }
      await new Promise((wait) => setTimeout(wait, pauseMs));
    }
  })();
  return {
    async stop(): Promise<Latencies> {
      running = false;
      await done;
      return { ...latencies(ms), ...(failed > 0 && { failed }) };
    },
  };
}

let lastAddress = 0;
/** A documentation address (198.18.0.0/15, for benchmarks) not used before in this run. */
export function nextAddress(): string {
  lastAddress++;
  return `198.18.${(lastAddress >> 8) & 255}.${lastAddress & 255}`;
}

/** Counts answers by status. */
export function tally(statuses: number[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}
