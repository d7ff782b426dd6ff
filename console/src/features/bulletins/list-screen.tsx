import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'wouter';
import { useDocumentTitle } from '../../lib/document-title';
import { shortTime } from '../../lib/wire-time';
import { buttonClass } from '../../ui/button';
import { Pager } from '../../ui/pager';
import { SearchForm } from '../../ui/search-form';
import { LoadProblem } from '../../ui/load-problem';
import { PinnedBadge, StatusBadge, Waiting } from '../../ui/status';
import { bulletinKeys, listBulletins, pageSize, type AdminBulletin, type ListFilter } from './api';
import { RowActions } from './row-actions';

const filters: { value: ListFilter; label: string }[] = [
  { value: 'all', label: '全部' },
  { value: 'published', label: '已发布' },
  { value: 'pinned', label: '置顶' },
  { value: 'draft', label: '草稿' },
  { value: 'scheduled', label: '已定时' },
];

const isFilter = (value: string | null): value is ListFilter => filters.some((entry) => entry.value === value);

/** Every announcement, newest first: search by title and body, filter by state, a page at a time,
 * and each row's actions (row-actions.tsx). The
 * search, filter and page live in the address, so a reload or the back button keeps them. */
export function BulletinListScreen() {
  useDocumentTitle('公告');
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const filterParam = params.get('filter');
  const filter: ListFilter = isFilter(filterParam) ? filterParam : 'all';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);

  const list = useQuery({
    queryKey: bulletinKeys.list(q, filter, page),
    queryFn: ({ signal }) => listBulletins(q, filter, page, signal),
    placeholderData: keepPreviousData,
  });
  const update = (next: { q?: string; filter?: ListFilter; page?: number }) => {
    const merged = { q, filter, page, ...next };
    const search = new URLSearchParams();
    if (merged.q !== '') search.set('q', merged.q);
    if (merged.filter !== 'all') search.set('filter', merged.filter);
    if (merged.page > 1) search.set('page', String(merged.page));
    setParams(search);
  };
  const pages = Math.max(1, Math.ceil((list.data?.count ?? 0) / pageSize));

  return (
    <section aria-labelledby="bulletins-heading" className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="bulletins-heading" className="text-xl font-semibold">
          公告
        </h1>
        <span className="flex gap-2">
          <Link href="/bulletins/trash" className={buttonClass('secondary')}>
            回收站
          </Link>
          <Link href="/bulletins/new" className={buttonClass('primary')}>
            新建公告
          </Link>
        </span>
      </div>
      <div className="flex flex-col gap-3 md:flex-row md:items-center">
        {/* Keyed by the search in the address, so going back to another search shows its words. */}
        <SearchForm
          key={q}
          id="bulletin-search"
          label="搜索标题和正文"
          placeholder="搜索标题和正文"
          submit="搜索"
          width="md:w-80"
          initial={q}
          onSearch={(text) => update({ q: text, page: 1 })}
        />
        <div role="group" aria-label="筛选" className="flex gap-1 overflow-x-auto">
          {filters.map((entry) => (
            <button
              key={entry.value}
              type="button"
              aria-pressed={filter === entry.value}
              onClick={() => update({ filter: entry.value, page: 1 })}
              className={`min-h-10 rounded-lg border px-3 text-sm whitespace-nowrap ${filter === entry.value ? 'border-brand bg-brand/15 font-semibold text-fg' : 'border-line text-muted hover:bg-surface-2'}`}
            >
              {entry.label}
            </button>
          ))}
        </div>
      </div>
      {list.isPending ? (
        <Waiting />
      ) : list.isError ? (
        <LoadProblem what="公告列表" error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.list.length === 0 ? (
        <p className="rounded-xl border border-dashed border-line py-12 text-center text-sm text-muted">
          {q !== '' || filter !== 'all' ? '没有符合条件的公告' : '还没有公告，点“新建公告”写第一条'}
        </p>
      ) : (
        <ul aria-label="公告列表" className="divide-y divide-line rounded-xl border border-line bg-surface">
          {list.data.list.map((bulletin) => (
            <li
              key={bulletin.id}
              className="flex items-center gap-2 pe-3 first:rounded-t-xl last:rounded-b-xl hover:bg-surface-2"
            >
              <Link
                href={`/bulletins/${bulletin.id}`}
                className="flex min-w-0 flex-1 flex-col gap-1.5 py-3 ps-4 md:flex-row md:items-center md:gap-4"
              >
                <span className="min-w-0 flex-1 truncate font-medium">{bulletin.title}</span>
                <span className="flex flex-wrap items-center gap-2 text-xs text-muted">
                  <StatusBadge status={bulletin.status} />
                  {bulletin.topup === 1 && <PinnedBadge />}
                  <RowTime bulletin={bulletin} />
                </span>
              </Link>
              <RowActions bulletin={bulletin} />
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} pages={pages} onPage={(next) => update({ page: next })} />
    </section>
  );
}

/** When it was saved (a draft), went public, or will: a scheduled one is said in the future
 * tense, as the notice of its save says it (docs/console.md#scheduling). */
function RowTime({ bulletin }: { bulletin: AdminBulletin }) {
  if (bulletin.status === 'draft') {
    return (
      <span>
        更新于 <time>{shortTime(bulletin.updated_at)}</time>
      </span>
    );
  }
  const at = <time>{shortTime(bulletin.publish_at)}</time>;
  return bulletin.status === 'scheduled' ? <span>将于 {at} 发布</span> : <span>发布于 {at}</span>;
}
