import type { UpdateStats } from '@chat-site/contract/admin';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../lib/api';
import { LoadProblem } from '../../ui/load-problem';
import { Waiting } from '../../ui/status';

const systems = ['android', 'ios', 'windows', 'mac'] as const;
type System = (typeof systems)[number];
const systemLabels: Record<System, string> = { android: 'Android', ios: 'iOS', windows: 'Windows', mac: 'Mac' };

/** One colour per version in the legend's order; the table beside the bars says every count, so
 * no version is told apart by hue alone. */
const colours = ['#2563eb', '#16a34a', '#d97706', '#9333ea', '#0891b2', '#db2777'];
const otherColour = '#9ca3af';
const colourOf = (versions: string[], version: string) =>
  version === 'other' ? otherColour : (colours[versions.indexOf(version) % colours.length] ?? otherColour);
const versionLabel = (version: string) => (version === 'other' ? '其他' : version);

const percent = (part: number, whole: number) => (whole === 0 ? '—' : `${Math.round((part * 100) / whole)}%`);

/** Who has updated (docs/releases.md#who-has-updated): per platform, the installs that checked for
 * updates each day by the version they run, and how many run the current release. */
export function UpdateVersions({ days }: { days: number }) {
  const headingId = useId();
  const [os, setOs] = useState<System>('android');
  const stats = useQuery({
    queryKey: ['stats', 'updates', os, days],
    queryFn: ({ signal }) => call<UpdateStats>(`/stats/updates?os=${os}&days=${days}`, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="text-lg font-semibold">
          已安装版本
        </h2>
        <div role="group" aria-label="平台" className="flex flex-wrap gap-1">
          {systems.map((system) => (
            <button
              key={system}
              type="button"
              aria-pressed={os === system}
              onClick={() => setOs(system)}
              className={`min-h-10 rounded-lg border px-3 text-sm ${os === system ? 'border-brand bg-brand/15 font-semibold text-fg' : 'border-line text-muted hover:bg-surface-2'}`}
            >
              {systemLabels[system]}
            </button>
          ))}
        </div>
      </div>
      {stats.isPending ? (
        <Waiting />
      ) : stats.isError ? (
        <LoadProblem what="版本数据" error={stats.error} onRetry={() => void stats.refetch()} />
      ) : (
        <Versions stats={stats.data} />
      )}
    </section>
  );
}

function Versions({ stats }: { stats: UpdateStats }) {
  const { versions, current } = stats;
  const seen = stats.days.filter((day) => Object.keys(day.installs).length > 0);
  const total = (day: UpdateStats['days'][number]) => Object.values(day.installs).reduce((sum, n) => sum + n, 0);
  const last = seen.at(-1);
  return (
    <>
      <p className="text-sm">
        {current === null
          ? `${systemLabels[stats.os as System]} 当前没有发布版本。`
          : last === undefined
            ? `当前版本 ${current}：这段时间没有应用检查更新。`
            : `当前版本 ${current}：${last.day} 检查更新的 ${total(last)} 个安装中，${last.installs[current] ?? 0} 个（${percent(last.installs[current] ?? 0, total(last))}）已更新到此版本。`}
      </p>
      <p className="text-xs text-muted">
        按应用检查更新时报告的版本统计，每个安装每天计一次；未在本站发布过的版本计为“其他”。electron
        应用的更新请求不带版本号，不在此列。
      </p>
      {seen.length > 0 && (
        <ul aria-label="版本图例" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {versions.map((version) => (
            <li key={version} className="flex items-center gap-1.5">
              <span
                aria-hidden
                className="inline-block size-3 rounded-sm"
                style={{ background: colourOf(versions, version) }}
              />
              {versionLabel(version)}
              {version === current && '（当前）'}
            </li>
          ))}
        </ul>
      )}
      <div className="overflow-x-auto rounded-xl border border-line bg-surface">
        <table className="w-full text-sm">
          <caption className="sr-only">
            每天检查更新的安装按版本分布，{stats.from} 至 {stats.to}
          </caption>
          <thead className="text-muted">
            <tr className="border-b border-line text-left">
              <th scope="col" className="px-3 py-2 font-medium">
                日期
              </th>
              {/* On a phone the counts beside it say the same: the bars make way for them. */}
              <th scope="col" className="hidden w-1/3 px-3 py-2 font-medium sm:table-cell">
                分布
              </th>
              {versions.map((version) => (
                <th key={version} scope="col" className="px-3 py-2 text-right font-medium whitespace-nowrap">
                  {versionLabel(version)}
                </th>
              ))}
              <th scope="col" className="px-3 py-2 text-right font-medium whitespace-nowrap">
                已更新
              </th>
            </tr>
          </thead>
          <tbody>
            {seen.length === 0 && (
              <tr>
                <td colSpan={versions.length + 3} className="px-3 py-4 text-center text-muted">
                  这段时间没有应用检查更新
                </td>
              </tr>
            )}
            {[...seen].reverse().map((day) => (
              <tr key={day.day} className="border-b border-line last:border-0">
                <th scope="row" className="px-3 py-2 text-left font-normal whitespace-nowrap">
                  {day.day.slice(5)}
                </th>
                <td className="hidden px-3 py-2 sm:table-cell">
                  <div aria-hidden className="flex h-3 min-w-24 overflow-hidden rounded-full bg-surface-2">
                    {versions.map((version) => (
                      <div
                        key={version}
                        style={{
                          width: `${((day.installs[version] ?? 0) * 100) / total(day)}%`,
                          background: colourOf(versions, version),
                        }}
                      />
                    ))}
                  </div>
                </td>
                {versions.map((version) => (
                  <td key={version} className="px-3 py-2 text-right tabular-nums">
                    {day.installs[version] ?? 0}
                  </td>
                ))}
                <td className="px-3 py-2 text-right tabular-nums">
                  {current === null ? '—' : percent(day.installs[current] ?? 0, total(day))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
