import { useSearchParams } from 'wouter';
import { Button } from '../../ui/button';
import { inputClass } from '../../ui/field';
import { actionLabels } from './audit-sentence';

/** The audit log's filters; they live in the address (docs/console.md#the-audit-log). */
export interface AuditFilters {
  who: string;
  action: string;
  from: string;
  to: string;
  q: string;
  page: number;
}

const day = /^\d{4}-\d{2}-\d{2}$/;

/** The filters the address names, and a way to change them (a new history entry each time, so
 * back and forward step through them). */
export function useAuditFilters(): [AuditFilters, (next: Partial<AuditFilters>) => void] {
  const [params, setParams] = useSearchParams();
  const read = (name: string) => params.get(name) ?? '';
  const filters: AuditFilters = {
    who: read('who'),
    action: read('action'),
    from: day.test(read('from')) ? read('from') : '',
    to: day.test(read('to')) ? read('to') : '',
    q: read('q'),
    page: Math.max(1, Number.parseInt(read('page') || '1', 10) || 1),
  };
  const update = (next: Partial<AuditFilters>) => {
    const merged = { ...filters, page: 1, ...next };
    const search = new URLSearchParams();
    for (const name of ['who', 'action', 'from', 'to', 'q'] as const) {
      if (merged[name] !== '') search.set(name, merged[name]);
    }
    if (merged.page > 1) search.set('page', String(merged.page));
    setParams(search);
  };
  return [filters, update];
}

/** Who, action, a range of days and words; sent as a whole with 筛选. */
export function AuditFilterForm({
  filters,
  onApply,
}: {
  filters: AuditFilters;
  onApply: (next: AuditFilters) => void;
}) {
  const label = 'mb-1 block text-xs text-muted';
  return (
    <form
      aria-label="筛选审计日志"
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-6 lg:items-end"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const value = (name: string) => String(data.get(name) ?? '').trim();
        onApply({
          who: value('who'),
          action: value('action'),
          from: value('from'),
          to: value('to'),
          q: value('q'),
          page: 1,
        });
      }}
    >
      <div>
        <label htmlFor="audit-who" className={label}>
          操作人或对象
        </label>
        <input id="audit-who" name="who" defaultValue={filters.who} placeholder="例如 alice" className={inputClass} />
      </div>
      <div>
        <label htmlFor="audit-action" className={label}>
          操作
        </label>
        <select id="audit-action" name="action" defaultValue={filters.action} className={inputClass}>
          <option value="">全部操作</option>
          {Object.entries(actionLabels).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="audit-from" className={label}>
          开始日期
        </label>
        <input id="audit-from" name="from" type="date" defaultValue={filters.from} className={inputClass} />
      </div>
      <div>
        <label htmlFor="audit-to" className={label}>
          结束日期
        </label>
        <input id="audit-to" name="to" type="date" defaultValue={filters.to} className={inputClass} />
      </div>
      <div>
        <label htmlFor="audit-q" className={label}>
          关键词
        </label>
        <input
          id="audit-q"
          name="q"
          type="search"
          defaultValue={filters.q}
          placeholder="标题、地址等"
          className={inputClass}
        />
      </div>
      <div>
        <Button type="submit">筛选</Button>
      </div>
    </form>
  );
}
