import { useState } from 'react';
import { Button } from '../../ui/button';
import { Modal } from '../../ui/dialog';
import { PinnedBadge, StatusBadge } from '../../ui/status';
import { shortTime } from '../../lib/wire-time';
import type { AdminBulletin, BulletinDraft } from './api';
import { BulletinHtml } from './bulletin-html';
import {
  conflictWords,
  differingParts,
  draftOf,
  mergeDraft,
  partLabels,
  type ConflictPart,
  type Side,
} from './conflict-fields';

/** Someone saved the announcement after this operator opened it (or they did, in another tab):
 * who and when, which parts differ, and for each the operator's choice, theirs or mine. Nothing
 * is overwritten without it (docs/console.md#two-operators-one-announcement). */
export function ConflictDialog({
  mine,
  current,
  savedBy,
  me,
  busy,
  onSave,
  onTakeTheirs,
  onClose,
}: {
  mine: BulletinDraft;
  current: AdminBulletin;
  savedBy: string | null;
  me: string;
  busy: boolean;
  onSave: (draft: BulletinDraft) => void;
  onTakeTheirs: () => void;
  onClose: () => void;
}) {
  const parts = differingParts(mine, current);
  const [choice, setChoice] = useState<Partial<Record<ConflictPart, Side>>>({});
  const words = conflictWords(savedBy, me, shortTime(current.updated_at));
  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      wide
      title={words.title}
      description={`${words.text}现在是第 ${current.version} 版。不同的部分：${parts.map((part) => partLabels[part]).join('、') || '无'}。请逐项选择保留哪一边，再保存。`}
    >
      <div className="flex flex-col gap-4">
        {parts.map((part) => (
          <fieldset key={part} className="rounded-xl border border-line p-3">
            <legend className="px-1 text-sm font-semibold">{partLabels[part]}</legend>
            <div className="grid gap-3 md:grid-cols-2">
              {(['mine', 'theirs'] as const).map((side) => (
                <label
                  key={side}
                  className={`flex cursor-pointer flex-col gap-2 rounded-lg border p-3 ${
                    (choice[part] ?? 'mine') === side ? 'border-brand' : 'border-line'
                  }`}
                >
                  <span className="flex items-center gap-2 text-sm font-medium">
                    <input
                      type="radio"
                      name={`conflict-${part}`}
                      checked={(choice[part] ?? 'mine') === side}
                      onChange={() => setChoice((old) => ({ ...old, [part]: side }))}
                    />
                    {side === 'mine' ? `用我的${partLabels[part]}` : `用已保存的${partLabels[part]}`}
                  </span>
                  <PartView
                    part={part}
                    draft={side === 'mine' ? mine : draftOf(current)}
                    current={current}
                    side={side}
                  />
                </label>
              ))}
            </div>
          </fieldset>
        ))}
        {parts.some((part) => (choice[part] ?? 'mine') === 'mine') && (
          <p className="rounded-lg bg-surface-2 px-3 py-2 text-sm">
            选“用我的”的部分会替换已保存的内容；已保存的第 {current.version}{' '}
            版不会丢失，仍在“历史版本”中，可随时查看或恢复。
          </p>
        )}
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button onClick={onClose}>继续编辑</Button>
        <Button onClick={onTakeTheirs} disabled={busy}>
          全部使用已保存的版本
        </Button>
        <Button tone="primary" onClick={() => onSave(mergeDraft(mine, current, choice))} disabled={busy}>
          按所选保存
        </Button>
      </div>
    </Modal>
  );
}

function PartView({
  part,
  draft,
  current,
  side,
}: {
  part: ConflictPart;
  draft: BulletinDraft;
  current: AdminBulletin;
  side: Side;
}) {
  if (part === 'title') return <span className="text-base font-semibold">{draft.title}</span>;
  if (part === 'traditional' || part === 'english')
    return <VersionView part={part} draft={draft} current={current} side={side} />;
  if (part === 'content') {
    return (
      <div className="max-h-48 overflow-auto text-sm">
        <BulletinHtml html={draft.content} />
      </div>
    );
  }
  return (
    <span className="flex flex-wrap items-center gap-2 text-sm">
      {side === 'theirs' ? <StatusBadge status={current.status} /> : draft.state === 'draft' ? '草稿' : '发布'}
      {draft.topup === 1 ? <PinnedBadge /> : <span className="text-muted">不置顶</span>}
      {draft.publish_at !== null && <span className="text-muted">{draft.publish_at.slice(0, 16)}</span>}
    </span>
  );
}

/** A traditional or English version: the saved one as saved, the operator's as it would be sent. */
function VersionView({
  part,
  draft,
  current,
  side,
}: {
  part: 'traditional' | 'english';
  draft: BulletinDraft;
  current: AdminBulletin;
  side: Side;
}) {
  const traditional = part === 'traditional';
  if (traditional && side === 'mine' && draft.reconvert === 1) {
    return <span className="text-sm text-muted">保存时由简体重新转换</span>;
  }
  const title =
    side === 'theirs'
      ? traditional
        ? current.title_tw
        : current.title_en
      : traditional
        ? draft.title_tw
        : draft.title_en;
  const content =
    side === 'theirs'
      ? traditional
        ? current.content_tw
        : current.content_en
      : traditional
        ? draft.content_tw
        : draft.content_en;
  if (!traditional && (title ?? '') === '') return <span className="text-sm text-muted">没有英文</span>;
  return (
    <div className="flex flex-col gap-1">
      <span className="text-base font-semibold">{title}</span>
      <div className="max-h-48 overflow-auto text-sm">
        <BulletinHtml html={content ?? ''} />
      </div>
    </div>
  );
}
