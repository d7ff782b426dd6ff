import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import { useDocumentTitle } from '../../lib/document-title';
import { shortTime } from '../../lib/wire-time';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { LoadProblem } from '../../ui/load-problem';
import { Pager } from '../../ui/pager';
import { Problem, Waiting } from '../../ui/status';
import { useRestoreBulletin } from './api';
import { historyKeys, listTrash, trashPageSize, usePurgeBulletin, type TrashItem } from './history-api';

/** 回收站: announcements deleted in the last 30 days, each restorable or purged early after
 * asking; the server purges the rest by itself (docs/console.md#trash). */
export function TrashScreen() {
  useDocumentTitle('回收站');
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const trash = useQuery({
    queryKey: historyKeys.trash(page),
    queryFn: ({ signal }) => listTrash(page, signal),
    placeholderData: keepPreviousData,
  });
  const [purging, setPurging] = useState<TrashItem>();
  const restore = useRestoreBulletin();
  const purge = usePurgeBulletin();
  const failed = restore.error ?? purge.error;
  const pages = Math.max(1, Math.ceil((trash.data?.count ?? 0) / trashPageSize));

  return (
    <section aria-labelledby="trash-heading" className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="trash-heading" className="text-xl font-semibold">
          回收站
        </h1>
        <Link href="/bulletins" className="text-sm text-brand-ink underline underline-offset-4">
          返回公告列表
        </Link>
      </div>
      <p className="text-sm text-muted">删除的公告在这里保留 30 天，到期后由服务器自动彻底删除，连同它的历史版本。</p>
      {failed !== null && <Problem>操作失败：{failed.message}</Problem>}
      {trash.isPending ? (
        <Waiting />
      ) : trash.isError ? (
        <LoadProblem what="回收站" error={trash.error} onRetry={() => void trash.refetch()} />
      ) : trash.data.list.length === 0 ? (
        <p className="rounded-xl border border-dashed border-line py-12 text-center text-sm text-muted">回收站是空的</p>
      ) : (
        <ul
          aria-label="已删除的公告"
          className="divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface"
        >
          {trash.data.list.map((item) => (
            <li key={item.id} className="flex flex-col gap-2 px-4 py-3 md:flex-row md:items-center md:gap-4">
              <span className="flex min-w-0 flex-1 flex-col gap-1">
                <span className="truncate font-medium">{item.title}</span>
                <span className="text-xs text-muted">
                  删除于 <time>{shortTime(item.deleted_at)}</time> · <time>{shortTime(item.purge_at)}</time>{' '}
                  自动彻底删除
                </span>
              </span>
              <span className="flex gap-2">
                <Button
                  disabled={restore.isPending}
                  onClick={() => restore.mutate(item)}
                  aria-label={`恢复“${item.title}”`}
                >
                  恢复
                </Button>
                <Button tone="danger" onClick={() => setPurging(item)} aria-label={`彻底删除“${item.title}”`}>
                  彻底删除
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} pages={pages} onPage={(next) => setParams(next > 1 ? { page: String(next) } : {})} />
      <ConfirmDialog
        open={purging !== undefined}
        onOpenChange={(open) => {
          if (!open) setPurging(undefined);
        }}
        title="彻底删除这条公告？"
        description={<p>“{purging?.title}”和它的所有历史版本会被永久删除，无法恢复。</p>}
        confirm="彻底删除"
        tone="danger"
        onConfirm={() => {
          if (purging !== undefined) purge.mutate(purging);
        }}
      />
    </section>
  );
}
