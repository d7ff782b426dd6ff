import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useDocumentTitle } from '../../lib/document-title';
import { call } from '../../lib/api';
import { buttonClass } from '../../ui/button';
import { LoadProblem } from '../../ui/load-problem';
import { Waiting } from '../../ui/status';
import { labels, platforms, Table, type Platform, type Stats } from './numbers-table';
import { UpdateVersions } from './update-versions';

/** Told apart by more than hue: each line has its own dash too. */
const strokes: Record<Platform, { stroke: string; dash?: number[] }> = {
  android: { stroke: '#16a34a' },
  ios: { stroke: '#2563eb', dash: [6, 3] },
  windows: { stroke: '#d97706', dash: [2, 3] },
  mac: { stroke: '#9333ea', dash: [10, 3, 2, 3] },
  harmonyos: { stroke: '#dc2626', dash: [1, 2] },
};

const spans = [7, 30, 90] as const;

/** Downloads through the /dl links per platform per day: a chart, the table beside it, and the
 * same days as a CSV file. Bots are not counted (docs/public-api.md#stable-download-links).
 * Beneath the total, how many visits came from the chat apps' built-in browsers and how many
 * guides they were shown (docs/site.md#in-app-browsers). */
export function NumbersScreen() {
  useDocumentTitle('数据');
  const [days, setDays] = useState<(typeof spans)[number]>(7);
  const stats = useQuery({
    queryKey: ['stats', days],
    queryFn: ({ signal }) => call<Stats>(`/stats/downloads?days=${days}`, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="numbers-heading" className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="numbers-heading" className="text-xl font-semibold">
          下载数据
        </h1>
        <div className="flex flex-wrap items-center gap-2">
          <div role="group" aria-label="时间范围" className="flex gap-1">
            {spans.map((span) => (
              <button
                key={span}
                type="button"
                aria-pressed={days === span}
                onClick={() => setDays(span)}
                className={`min-h-10 rounded-lg border px-3 text-sm ${days === span ? 'border-brand bg-brand/15 font-semibold text-fg' : 'border-line text-muted hover:bg-surface-2'}`}
              >
                {span} 天
              </button>
            ))}
          </div>
          <a href={`/v1/admin/stats/downloads?days=${days}&format=csv`} download className={buttonClass('secondary')}>
            导出 CSV
          </a>
        </div>
      </div>
      {stats.isPending ? (
        <Waiting />
      ) : stats.isError ? (
        <LoadProblem what="下载数据" error={stats.error} onRetry={() => void stats.refetch()} />
      ) : (
        <>
          <p className="text-sm text-muted">
            {stats.data.from} 至 {stats.data.to}（{stats.data.time_zone}）共 {stats.data.total.total}{' '}
            次下载；不含搜索引擎和机器人。
          </p>
          <p className="text-sm text-muted">
            来自微信、QQ 等 App 内置浏览器的访问 {stats.data.in_app.total.visits} 次，其中显示“在浏览器中打开”引导{' '}
            {stats.data.in_app.total.guides} 次。
          </p>
          <div className="grid gap-4 lg:grid-cols-[1fr_27rem]">
            <Chart stats={stats.data} />
            <Table stats={stats.data} />
          </div>
        </>
      )}
      <UpdateVersions days={days} />
    </section>
  );
}

function Chart({ stats }: { stats: Stats }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    const x = stats.days.map((day) => Date.parse(`${day.day}T00:00:00Z`) / 1000);
    const data: uPlot.AlignedData = [x, ...platforms.map((os) => stats.days.map((day) => day[os]))];
    const muted = getComputedStyle(element).color;
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: 280,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'UTC'),
        scales: { y: { range: (_u, _min, max) => [0, Math.max(5, Math.ceil(max * 1.1))] } },
        axes: [
          {
            stroke: muted,
            grid: { stroke: 'rgba(127,127,127,0.15)' },
            // Whole days only, written as 11-25: the counts are per day.
            incrs: [86_400, 2 * 86_400, 7 * 86_400, 14 * 86_400, 28 * 86_400],
            values: (_u, splits) => splits.map((ts) => new Date(ts * 1000).toISOString().slice(5, 10)),
          },
          { stroke: muted, grid: { stroke: 'rgba(127,127,127,0.15)' } },
        ],
        series: [
          { label: '日期', value: (_u, ts) => (ts === null ? '' : new Date(ts * 1000).toISOString().slice(0, 10)) },
          ...platforms.map((os) => ({ label: labels[os], width: 2, ...strokes[os] })),
        ],
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, element.clientWidth), height: 280 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [stats]);
  return (
    <figure className="min-w-0 rounded-xl border border-line bg-surface p-3">
      <div
        ref={box}
        role="img"
        aria-label={`每天各平台下载次数折线图，${stats.from} 至 ${stats.to}`}
        className="text-muted"
      />
    </figure>
  );
}
