import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../lib/api';
import { shortTime } from '../../lib/wire-time';
import { Button, buttonClass } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Close, Modal } from '../../ui/dialog';
import { LoadProblem } from '../../ui/load-problem';
import { Problem, Waiting } from '../../ui/status';
import type { AdminBulletin } from './api';
import { getRevision, historyKeys, listRevisions, useRestoreRevision, type Revision } from './history-api';
import { RevisionDiff } from './revision-diff';

const actions: Record<Revision['action'], string> = { create: '新建', update: '保存', restore: '恢复' };

function useRevision(id: number, revision: number | undefined) {
  return useQuery({
    queryKey: historyKeys.revision(id, revision ?? 0),
    queryFn: ({ signal }) => getRevision(id, revision ?? 0, signal),
    enabled: revision !== undefined,
    staleTime: Infinity,
  });
}

/** 历史版本: every saved revision (who, when), what each changed from the one before, and
 * 恢复此版本, which asks first and saves the revision as a new one (docs/console.md#revisions). */
export function HistoryDialog({
  bulletin,
  unsaved,
  open,
  onOpenChange,
  onRestored,
}: {
  bulletin: AdminBulletin;
  unsaved: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onRestored: (bulletin: AdminBulletin, revision: Revision) => void;
}) {
  const list = useQuery({
    queryKey: historyKeys.revisions(bulletin.id, bulletin.version),
    queryFn: ({ signal }) => listRevisions(bulletin.id, signal),
    enabled: open,
  });
  const revisions = list.data?.list ?? [];
  const [picked, setPicked] = useState<number>();
  const index = Math.max(
    0,
    revisions.findIndex((revision) => revision.id === picked),
  );
  const chosen = revisions[index];
  const after = useRevision(bulletin.id, chosen?.id);
  const before = useRevision(bulletin.id, revisions[index + 1]?.id);
  const [confirming, setConfirming] = useState(false);
  const restore = useRestoreRevision(bulletin, (restored, revision) => {
    setPicked(undefined);
    onRestored(restored, revision);
  });
  const conflict = restore.error instanceof ApiError && restore.error.status === 409;

  return (
    <Modal open={open} onOpenChange={onOpenChange} wide title="历史版本">
      {list.isPending ? (
        <Waiting />
      ) : list.isError ? (
        <LoadProblem what="历史版本" error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <div className="grid gap-4 md:grid-cols-[15rem_1fr]">
          <ul aria-label="版本列表" className="flex max-h-48 flex-col gap-1 overflow-y-auto md:max-h-[65vh]">
            {revisions.map((revision, at) => (
              <li key={revision.id}>
                <button
                  type="button"
                  aria-current={at === index}
                  onClick={() => setPicked(revision.id)}
                  className={`flex w-full flex-col items-start rounded-lg border px-3 py-2 text-start text-sm ${at === index ? 'border-brand bg-brand/15' : 'border-line hover:bg-surface-2'}`}
                >
                  <span className="font-medium">
                    第 {revision.version} 版 · {actions[revision.action]}
                    {at === 0 && '（当前）'}
                  </span>
                  <span className="text-xs text-muted">
                    {revision.by} · <time>{shortTime(revision.at)}</time>
                  </span>
                </button>
              </li>
            ))}
          </ul>
          <section
            aria-labelledby="revision-heading"
            className="flex min-w-0 flex-col gap-4 rounded-xl border border-line p-4"
          >
            {chosen !== undefined && (
              <div className="flex flex-wrap items-center gap-3">
                <h3 id="revision-heading" className="flex-1 text-sm font-semibold">
                  第 {chosen.version} 版相对
                  {revisions[index + 1] === undefined ? '空白' : `第 ${revisions[index + 1]?.version} 版`}的改动
                </h3>
                <Button tone="primary" disabled={index === 0 || restore.isPending} onClick={() => setConfirming(true)}>
                  恢复此版本
                </Button>
              </div>
            )}
            {restore.isError && (
              <Problem>
                {conflict
                  ? '恢复失败：这条公告已被他人修改。请关闭历史版本，在编辑器中处理后再试。'
                  : `恢复失败：${restore.error.message}`}
              </Problem>
            )}
            <Comparison after={after} before={before} none={chosen === undefined} />
          </section>
        </div>
      )}
      <div className="flex justify-end">
        <Close className={buttonClass('secondary')}>关闭</Close>
      </div>
      {chosen !== undefined && (
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title={`恢复到第 ${chosen.version} 版？`}
          description={
            <>
              <p>
                标题、正文和设置会恢复为 {chosen.by} 于 {shortTime(chosen.at)} 保存的样子，并作为一次新的保存记录下来；
                {chosen.state === 'published' ? '网站会立即显示恢复后的内容。' : '恢复后是草稿，不在网站上显示。'}
              </p>
              {unsaved && <p className="text-danger">编辑器里未保存的修改会被替换。</p>}
            </>
          }
          confirm="恢复此版本"
          onConfirm={() => restore.mutate(chosen)}
        />
      )}
    </Modal>
  );
}

/** The chosen revision against the one before it, each loaded on its own. */
function Comparison({
  after,
  before,
  none,
}: {
  after: ReturnType<typeof useRevision>;
  before: ReturnType<typeof useRevision>;
  none: boolean;
}) {
  if (none) return <p className="text-sm text-muted">还没有历史版本：下一次保存时开始记录。</p>;
  const failed = after.error ?? before.error;
  if (failed !== null) {
    const retry = () => void Promise.all([after.refetch(), before.refetch()]);
    return <LoadProblem what="这个版本" error={failed} onRetry={retry} />;
  }
  if (after.data === undefined || (before.isPending && before.fetchStatus !== 'idle')) return <Waiting />;
  return <RevisionDiff before={before.data} after={after.data} />;
}
