/**
 * `npm run audit`: Lighthouse 12 in Debian's Chromium against the built site, served by the real
 * server with demo content: every page below, with the mobile and the desktop preset, up to
 * `--runs` times each (default 3), one run after another in one browser so the runs do not compete
 * for the CPU. Prints the medians (four category scores, LCP, TBT, CLS) and the audits that cost
 * points, writes every run to .tmp/audit.json, and exits 1 when a median category score is
 * under `--min` (default 95). A page stops being run once its runs so far decide that (two that
 * agree, of three); `--all-runs` makes every run, for medians of LCP and TBT to compare.
 *
 * Build first (`npm run build`); WEB_ROOT picks another build folder. `--only <text>` audits only
 * the pages whose path contains it, `--preset mobile` (or desktop) only that preset; `--lhr
 * <folder>` also writes every run's full Lighthouse report there (JSON, for the details behind a
 * score: LCP element, long tasks, layout shifts).
 * `--lcp-path` prints, after each page on mobile, the simulated chain its LCP waited for
 * (scripts/lcp-path.ts); `--tbt-tasks`, the tasks its blocking time came from
 * (scripts/blocking-tasks.ts). `--lang` (default zh-CN) is the browser's language, sent as its
 * Accept-Language: the server answers the page prerendered in it (docs/reach.md#languages),
 * which the audit checks before it starts; `--lang en` and `--lang zh-TW` must score as zh-CN.
 * `--throttling devtools` loads each page on a network and CPU that Chromium really slows down
 * (the preset's own figures) and reports what it measured, where the default estimates the slow
 * load from a fast one (Lighthouse's Lantern simulation, what PageSpeed Insights reports): a
 * check of the estimate, slower to run and noisier.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pickLanguage } from '@chat-site/contract';
import lighthouse, { desktopConfig, type Config, type Flags } from 'lighthouse';
import { launchForLighthouse } from '../e2e/support/browser.js';
import { repoRoot, startServer } from '../e2e/support/server.js';
import { median, verdictKnown } from './audit-verdict.js';
import { blockingTasks } from './blocking-tasks.js';
import { calibrateCpuSlowdown, defaultCpuSlowdown } from './cpu-calibration.js';
import { lcpPath } from './lcp-path.js';

const pages = ['/', '/#/download', '/#/downloadHelp', '/#/announcements'];
const presets: Record<string, Config | undefined> = { mobile: undefined, desktop: desktopConfig };
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    min: { type: 'string', default: '95' },
    only: { type: 'string', default: '' },
    preset: { type: 'string', default: '' },
    lhr: { type: 'string', default: '' },
    lang: { type: 'string', default: 'zh-CN' },
    'lcp-path': { type: 'boolean', default: false },
    'tbt-tasks': { type: 'boolean', default: false },
    'all-runs': { type: 'boolean', default: false },
    throttling: { type: 'string', default: 'simulate' },
    cpu: { type: 'string', default: 'auto' },
  },
});
const runs = Number(values.runs);
const fixedCpu = values.cpu === 'auto' ? null : Number(values.cpu);
const min = Number(values.min);
if (
  !Number.isInteger(runs) ||
  runs < 1 ||
  runs > 20 ||
  !Number.isFinite(min) ||
  min < 0 ||
  min > 100 ||
  !/^[a-z]{2}(-[A-Za-z]{2,4})?$/.test(values.lang) ||
  (values.throttling !== 'simulate' && values.throttling !== 'devtools') ||
  (values.preset !== '' && !(values.preset in presets)) ||
  (fixedCpu !== null && !(Number.isFinite(fixedCpu) && fixedCpu >= 1 && fixedCpu <= 20))
) {
  console.error(
    'usage: npm run audit -- [--runs 1..20] [--min 0..100] [--only <path text>] [--preset mobile|desktop] [--lhr <folder>] [--lcp-path] [--tbt-tasks] [--all-runs] [--lang zh-CN|zh-TW|en] [--throttling simulate|devtools] [--cpu auto|1..20]',
  );
  process.exit(2);
}

interface Run {
  scores: Record<(typeof categories)[number], number>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Audits that cost points: id and score. */
  lost: { id: string; score: number }[];
}

let saved = 0;

/** The mobile preset's CPU slowdown on this machine: `--cpu`, or calibrated below. */
let mobileCpuSlowdown = defaultCpuSlowdown;

async function audit(url: string, port: number, config: Config | undefined): Promise<Run> {
  const flags: Flags = {
    port,
    ...(config === undefined ? { throttling: { cpuSlowdownMultiplier: mobileCpuSlowdown } } : {}),
    logLevel: 'error',
    disableFullPageScreenshot: true,
    onlyCategories: [...categories],
    output: 'json',
    throttlingMethod: values.throttling as 'simulate' | 'devtools',
    // As the browser's language asks (--accept-lang), whatever Lighthouse's emulation sends.
    extraHeaders: { 'Accept-Language': values.lang },
  };
  const result = await lighthouse(url, flags, config);
  if (result === undefined) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError !== undefined) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const slowdown = lhr.configSettings.throttling.cpuSlowdownMultiplier;
  if (config === undefined && slowdown !== mobileCpuSlowdown) {
    throw new Error(`${url}: Lighthouse simulated ${slowdown}× CPU slowdown, not ${mobileCpuSlowdown}×`);
  }
  if (values.lhr !== '') {
    mkdirSync(values.lhr, { recursive: true });
    saved += 1;
    const name = `${String(saved).padStart(2, '0')}-${new URL(url).hash.replace(/\W/g, '') || 'landing'}-${lhr.configSettings.formFactor}`;
    writeFileSync(join(values.lhr, `${name}.json`), JSON.stringify(lhr));
  }
  if (values['lcp-path'] && lhr.configSettings.formFactor === 'mobile') {
    console.log(`${url} (mobile)\n${(await lcpPath(result)).join('\n')}`);
  }
  if (values['tbt-tasks'] && lhr.configSettings.formFactor === 'mobile') {
    console.log(`${url} (mobile)\n${(await blockingTasks(result)).join('\n')}`);
  }
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const lost = categories.flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? []).flatMap((ref) => {
      const score = lhr.audits[ref.id]?.score;
      return ref.weight > 0 && typeof score === 'number' && score < 1 ? [{ id: ref.id, score }] : [];
    }),
  );
  return {
    scores: Object.fromEntries(
      categories.map((category) => [category, Math.round((lhr.categories[category]?.score ?? 0) * 100)]),
    ) as Run['scores'],
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    lost,
  };
}

/** Lighthouse sometimes loses a trace on a busy machine (NO_NAVSTART, NO_FCP): such a run is
 * repeated, up to twice, rather than failing the audit. */
async function auditWithRetries(url: string, port: number, config: Config | undefined): Promise<Run> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await audit(url, port, config);
    } catch (error) {
      if (attempt === 3) throw error;
      process.stderr.write(`retrying ${url}: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
}

const server = await startServer();
const expected = pickLanguage(null, null, [values.lang]);
const answered = /<html lang="([^"]+)"/.exec(
  await (await fetch(server.url, { headers: { 'accept-language': values.lang } })).text(),
)?.[1];
if (answered !== expected) {
  await server.stop();
  throw new Error(`a browser asking for ${values.lang} got the page in ${answered ?? 'no language'}, not ${expected}`);
}
const chrome = await launchForLighthouse([`--lang=${values.lang}`, `--accept-lang=${values.lang}`]);
console.log(`auditing as a visitor whose browser asks for ${values.lang}: the page prerendered in ${expected}`);
let calibration: Awaited<ReturnType<typeof calibrateCpuSlowdown>> | null = null;
const report: { page: string; preset: string; median: Omit<Run, 'lost'>; runs: Run[] }[] = [];
try {
  if (fixedCpu !== null) mobileCpuSlowdown = fixedCpu;
  else if (values.preset !== 'desktop') {
    calibration = await calibrateCpuSlowdown(chrome.port, Math.max(7, runs));
    mobileCpuSlowdown = calibration.cpuSlowdown;
    console.log(
      `CPU slowdown of the mobile preset: ${mobileCpuSlowdown}× (Lighthouse's ${defaultCpuSlowdown}×; benchmarkIndex ` +
        `${Math.round(calibration.benchmarkIndex)}; a blank page's longest task here: ` +
        `${calibration.longestTasksMs.map((ms) => `${ms.toFixed(1)} ms`).join(', ')}; scripts/cpu-calibration.ts)`,
    );
  }
  for (const page of pages.filter((path) => path.includes(values.only))) {
    for (const [preset, config] of Object.entries(presets).filter(
      ([name]) => values.preset === '' || name === values.preset,
    )) {
      const done: Run[] = [];
      const decided = () =>
        categories.every((category) =>
          verdictKnown(
            done.map((run) => run.scores[category]),
            runs,
            min,
          ),
        );
      while (done.length < runs && (values['all-runs'] || !decided()))
        done.push(await auditWithRetries(`${server.url}${page}`, chrome.port, config));
      report.push({
        page,
        preset,
        median: {
          // Rounded down: the median of two runs that agree stays on their side of the gate.
          scores: Object.fromEntries(
            categories.map((category) => [category, Math.floor(median(done.map((run) => run.scores[category])))]),
          ) as Run['scores'],
          lcpMs: median(done.map((run) => run.lcpMs)),
          tbtMs: median(done.map((run) => run.tbtMs)),
          cls: median(done.map((run) => run.cls)),
        },
        runs: done,
      });
      process.stderr.write(`audited ${page} (${preset})\n`);
    }
  }
} finally {
  chrome.kill();
  await server.stop();
}

const pad = (text: string | number, width: number) => String(text).padStart(width);
console.log(
  `\nLighthouse medians of ${values['all-runs'] ? runs : `up to ${runs}`} run(s) (perf, a11y, best practices, SEO; LCP, TBT, CLS)${values.preset === 'desktop' ? '' : `; mobile at ${mobileCpuSlowdown}× CPU slowdown`}`,
);
console.log(`${'page'.padEnd(20)}${'preset'.padEnd(9)} perf a11y   bp  seo     LCP     TBT    CLS`);
for (const { page, preset, median: m } of report) {
  const s = m.scores;
  console.log(
    `${page.padEnd(20)}${preset.padEnd(9)}${pad(s.performance, 5)}${pad(s.accessibility, 5)}${pad(s['best-practices'], 5)}` +
      `${pad(s.seo, 5)}${pad(`${Math.round(m.lcpMs)} ms`, 8)}${pad(`${Math.round(m.tbtMs)} ms`, 8)}${pad(m.cls.toFixed(3), 7)}`,
  );
}
const lostEverywhere = new Map<string, number>();
for (const entry of report)
  for (const run of entry.runs)
    for (const { id } of run.lost) lostEverywhere.set(id, (lostEverywhere.get(id) ?? 0) + 1);
if (lostEverywhere.size > 0)
  console.log(
    `\nAudits that cost points (in how many runs): ${[...lostEverywhere].map(([id, n]) => `${id} (${n})`).join(', ')}`,
  );

mkdirSync(join(repoRoot, '.tmp'), { recursive: true });
writeFileSync(
  join(repoRoot, '.tmp/audit.json'),
  JSON.stringify({ runs, min, mobileCpuSlowdown, calibration, report }, null, 2),
);
console.log('Every run: .tmp/audit.json');

const failing = report.flatMap(({ page, preset, median: m }) =>
  categories
    .filter((category) => m.scores[category] < min)
    .map((category) => `${page} ${preset} ${category} ${m.scores[category]}`),
);
if (failing.length > 0) {
  console.error(`FAIL: under ${min}: ${failing.join('; ')}`);
  process.exitCode = 1;
}
