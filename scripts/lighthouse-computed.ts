/**
 * Lighthouse's computed artifacts (its simulated LCP, its blocking tasks …) are requested with
 * the run's trace and network log and a cache; the audit's diagnostics (scripts/lcp-path.ts,
 * scripts/blocking-tasks.ts) ask them of a finished run this way.
 */
import type { RunnerResult } from 'lighthouse';

interface ComputedArtifact<T> {
  request(data: never, context: never): Promise<T>;
}

export function requestComputed<T>(artifact: ComputedArtifact<T>, result: RunnerResult): Promise<T> {
  const { artifacts, lhr } = result;
  const data = {
    trace: artifacts.Trace,
    devtoolsLog: artifacts.DevtoolsLog,
    gatherContext: artifacts.GatherContext,
    settings: lhr.configSettings,
    simulator: null,
    URL: artifacts.URL,
    SourceMaps: artifacts.SourceMaps,
  };
  return artifact.request(data as never, { computedCache: new Map() } as never);
}
