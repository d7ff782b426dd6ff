/**
 * The benchmarks still run against the site as it is built now: each is started for a few
 * seconds at a few connections, and every target must answer, without errors, through the whole
 * run. Their figures are not judged here (the ratios to nginx and Node and flat memory need the full
 * run, `npm run bench:api`, `bench:load`, `bench:files` and `bench:metrics`); what this catches is a script that no
 * longer starts, as when the page stopped naming its entry script in a <script src>.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { repoRoot } from '../testing/repo-root.js';

const dir = mkdtempSync(join(tmpdir(), 'chat-site-bench-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a benchmark script briefly; answers its output and the results it wrote. */
function runBenchmark<Result extends { name: string }>(script: string, env: Record<string, string>) {
  const results = join(dir, `${script}.json`);
  const run = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', `scripts/${script}.ts`], {
    cwd: repoRoot,
    env: { ...process.env, ...env, BENCH_WARMUP_SECONDS: '0', BENCH_CONNECTIONS: '4', BENCH_RESULTS: results },
    encoding: 'utf8',
    timeout: 120_000,
  });
  const output = `${run.stdout}${run.stderr}`;
  // 0 passed, 1 judged a figure: either way the script ran to its report.
  assert.ok(run.status === 0 || run.status === 1, `${script} ended with ${run.status ?? run.signal}:\n${output}`);
  return { output, report: JSON.parse(readFileSync(results, 'utf8')) as { results: Result[] } };
}

describe('the benchmarks', () => {
  test('bench:api measures both reads on both nginx, bare Node and the server without an error', () => {
    type Figures = { requestsPerSecond: number; errors: number };
    const { report, output } = runBenchmark<{
      name: string;
      figures: Record<string, Figures>;
      bareNodeOfDebianNginx: number;
      shippedOfBareNode: number;
    }>('bench-api', {
      BENCH_SECONDS: '1',
      BENCH_ROUNDS: '1',
    });
    assert.deepEqual(
      report.results.map((result) => result.name),
      ['bulletin/detail', 'bulletin/page'],
    );
    // The script itself refuses to measure a subject that answers other bytes.
    for (const result of report.results) {
      // nginx, bare Node, one worker and every core; Debian's nginx and the server at its defaults;
      // then bare Node on every core, Node's own ceiling.
      assert.equal(Object.keys(result.figures).length, 7, result.name);
      assert.ok(result.bareNodeOfDebianNginx > 0 && result.shippedOfBareNode > 0, result.name);
      for (const [subject, figures] of Object.entries(result.figures)) {
        assert.ok(figures.requestsPerSecond > 0, `${result.name} ${subject}: no request answered\n${output}`);
        assert.equal(figures.errors, 0, `${result.name} ${subject}: errors\n${output}`);
      }
    }
  });

  test('bench:load loads every target without an error', () => {
    const { report, output } = runBenchmark<{
      name: string;
      probe: { status: number; contentEncoding: string | null };
      totalRequests: number;
      errors: number;
      timeouts: number;
      non2xx: number;
    }>('bench-load', { BENCH_SECONDS: '3' });
    assert.deepEqual(
      report.results.map((result) => result.name),
      ['bulletin/page', 'bulletin/detail', 'page /', 'hashed asset'],
    );
    for (const result of report.results) {
      assert.equal(result.probe.status, 200, `${result.name}\n${output}`);
      assert.equal(result.probe.contentEncoding, 'br', `${result.name} is served compressed`);
      assert.ok(result.totalRequests > 0, `${result.name}: no request answered\n${output}`);
      assert.deepEqual([result.errors, result.timeouts, result.non2xx], [0, 0, 0], `${result.name}\n${output}`);
    }
  });

  test('bench:files uploads, verifies every download and measures the server beside nginx', () => {
    type Side = { name: string; medianMBps: number; ratio: number | null; goal: number | null };
    const { report, output } = runBenchmark<
      { name: 'slow clients'; completed: number; failures: unknown[] } | { name: 'throughput'; sides: Side[] }
    >('bench-files', { BENCH_FILE_MB: '8', BENCH_CLIENTS: '4', BENCH_CLIENT_KBPS: '8192', BENCH_ROUNDS: '1' });
    assert.deepEqual(
      report.results.map((result) => result.name),
      ['slow clients', 'throughput'],
      `the upload was refused?\n${output}`,
    );
    for (const result of report.results) {
      if (result.name === 'slow clients') {
        assert.equal(result.completed, 4, output);
        assert.deepEqual(result.failures, [], output);
      } else {
        // Each side was verified by its SHA-256 before it was timed, or the script stopped.
        assert.deepEqual(
          result.sides.map((side) => [side.name, side.goal]),
          [
            ['nginx', null],
            ['server direct', 0.6],
            ['server behind nginx', null],
            ['server behind nginx, X-Accel-Redirect', 0.9],
            ['S3 behind nginx, X-Accel-Redirect', null],
          ],
          output,
        );
        for (const side of result.sides) assert.ok(side.medianMBps > 0, `${side.name}\n${output}`);
      }
    }
  });

  test('bench:metrics times an observation, a count and a scrape', () => {
    const { report, output } = runBenchmark<{ name: string; nsPerCall?: number; ms?: number; bytes?: number }>(
      'bench-metrics',
      { BENCH_ROUNDS: '1' },
    );
    assert.deepEqual(
      report.results.map((result) => result.name),
      ['request observation', 'read-cache count', 'scrape'],
      output,
    );
    for (const result of report.results) assert.ok((result.nsPerCall ?? result.ms ?? 0) > 0, output);
    assert.ok((report.results[2]?.bytes ?? 0) > 10_000, output);
  });
});
