import type { BulletinStatus } from '@chat-site/contract/admin';
import type { ReactNode } from 'react';

export type { BulletinStatus };

export const statusLabels: Record<BulletinStatus, string> = {
  draft: '草稿',
  scheduled: '已定时',
  published: '已发布',
};

const statusTones: Record<BulletinStatus, string> = {
  draft: 'border-line text-muted',
  scheduled: 'border-brand-ink text-brand-ink',
  published: 'border-transparent bg-brand/15 text-brand-ink',
};

export function StatusBadge({ status }: { status: BulletinStatus }) {
  return (
    <span
      className={`inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium ${statusTones[status]}`}
    >
      {statusLabels[status]}
    </span>
  );
}

export function PinnedBadge() {
  return (
    <span className="inline-flex items-center rounded-full border border-transparent bg-surface-2 px-2 py-0.5 text-xs font-medium text-fg">
      置顶
    </span>
  );
}

/** A failure worth the operator's attention, in words. */
export function Problem({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-lg border border-danger px-3 py-2 text-sm text-danger">
      {children}
    </p>
  );
}

export function Waiting({ label = '加载中…' }: { label?: string }) {
  return (
    <p role="status" className="py-8 text-center text-sm text-muted">
      {label}
    </p>
  );
}
