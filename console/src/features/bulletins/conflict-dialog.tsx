import { Button } from '../../ui/button';
import { Modal } from '../../ui/dialog';
import { PinnedBadge, StatusBadge } from '../../ui/status';
import { shortTime } from '../../lib/wire-time';
import type { AdminBulletin, BulletinDraft } from './api';
import { BulletinHtml } from './bulletin-html';

/** Someone else saved the announcement after this operator opened it: both versions side by
 * side, and the choice is the operator's. Nothing is overwritten without it. */
export function ConflictDialog({
  mine,
  current,
  busy,
  onKeepMine,
  onTakeTheirs,
  onClose,
}: {
  mine: BulletinDraft;
  current: AdminBulletin;
  busy: boolean;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
  onClose: () => void;
}) {
  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      wide
      title="保存冲突：这条公告已被他人修改"
      description={`在你打开之后，它已被保存过（现在是第 ${current.version} 版，更新于 ${shortTime(current.updated_at)}）。请比较两个版本，再决定保留哪一个。`}
    >
      <div className="grid gap-4 md:grid-cols-2">
        <section aria-labelledby="conflict-mine" className="rounded-xl border border-brand p-4">
          <h3 id="conflict-mine" className="mb-3 text-sm font-semibold text-brand-ink">
            你的版本（未保存）
          </h3>
          <p className="mb-2 flex flex-wrap items-center gap-2 text-base font-semibold">
            {mine.title}
            {mine.topup === 1 && <PinnedBadge />}
          </p>
          <BulletinHtml html={mine.content} />
        </section>
        <section aria-labelledby="conflict-theirs" className="rounded-xl border border-line p-4">
          <h3 id="conflict-theirs" className="mb-3 text-sm font-semibold">
            当前保存的版本
          </h3>
          <p className="mb-2 flex flex-wrap items-center gap-2 text-base font-semibold">
            {current.title}
            <StatusBadge status={current.status} />
            {current.topup === 1 && <PinnedBadge />}
          </p>
          <BulletinHtml html={current.content} />
        </section>
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button onClick={onClose}>继续编辑</Button>
        <Button onClick={onTakeTheirs} disabled={busy}>
          放弃我的修改，使用当前版本
        </Button>
        <Button tone="primary" onClick={onKeepMine} disabled={busy}>
          用我的版本覆盖
        </Button>
      </div>
    </Modal>
  );
}
