import type { DownloadStats } from '@chat-site/contract/admin';
import { useLayoutEffect, useRef, useState } from 'react';

export const platforms = ['android', 'ios', 'windows', 'mac', 'harmonyos'] as const;
export type Platform = (typeof platforms)[number];
export const labels: Record<Platform, string> = {
  android: 'Android',
  ios: 'iOS',
  windows: 'Windows',
  mac: 'Mac',
  // Short, so that the table still fits a phone's width (docs/console.md).
  harmonyos: '鸿蒙',
};

export type Stats = DownloadStats;

/** True while the element is wider inside than it shows. */
function useOverflows<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (element === null) return;
    const resize = new ResizeObserver(() => setOverflows(element.scrollWidth > element.clientWidth + 1));
    resize.observe(element);
    return () => resize.disconnect();
  }, []);
  return [ref, overflows] as const;
}

/** The days as a table. On a phone the dates lose their year (the range says it above) so the
 * columns fit; should they still not, the table scrolls in its own box and says so
 * (docs/console.md), and the page itself never scrolls sideways. */
export function Table({ stats }: { stats: Stats }) {
  const [box, overflows] = useOverflows<HTMLDivElement>();
  return (
    <div className="flex min-w-0 flex-col gap-1">
      {overflows && (
        <p id="numbers-table-hint" className="text-xs text-muted">
          左右滑动查看各平台 →
        </p>
      )}
      <div
        ref={box}
        tabIndex={0}
        role="region"
        aria-label="下载次数表"
        {...(overflows && { 'aria-describedby': 'numbers-table-hint' })}
        className="max-h-96 overflow-auto rounded-xl border border-line bg-surface"
      >
        <table className="w-full text-sm">
          <caption className="sr-only">每天各平台下载次数</caption>
          <thead className="sticky top-0 bg-surface">
            <tr className="text-muted">
              <th scope="col" className="px-2 py-2 text-start font-medium">
                日期
              </th>
              {platforms.map((os) => (
                <th key={os} scope="col" className="px-1.5 py-2 text-end font-medium whitespace-nowrap">
                  {labels[os]}
                </th>
              ))}
              <th scope="col" className="px-2 py-2 text-end font-medium whitespace-nowrap">
                合计
              </th>
            </tr>
          </thead>
          <tbody>
            {[...stats.days].reverse().map((day) => (
              <tr key={day.day} className="border-t border-line">
                <th scope="row" className="px-2 py-1.5 text-start font-normal whitespace-nowrap">
                  <time dateTime={day.day}>
                    <span className="sm:hidden">{day.day.slice(5)}</span>
                    <span className="hidden sm:inline">{day.day}</span>
                  </time>
                </th>
                {platforms.map((os) => (
                  <td key={os} className="px-1.5 py-1.5 text-end tabular-nums">
                    {day[os]}
                  </td>
                ))}
                <td className="px-2 py-1.5 text-end font-semibold tabular-nums">{day.total}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="border-t border-line font-semibold">
              <th scope="row" className="px-2 py-2 text-start">
                合计
              </th>
              {platforms.map((os) => (
                <td key={os} className="px-1.5 py-2 text-end tabular-nums">
                  {stats.total[os]}
                </td>
              ))}
              <td className="px-2 py-2 text-end tabular-nums">{stats.total.total}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </div>
  );
}
