import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import type { Revision as ReadRevision, RevisionSummary, TrashItem } from '@chat-site/contract/admin';
import { useNotify } from '../../ui/toasts';
import { bulletinKeys, type AdminBulletin } from './api';

export type { TrashItem };
/** A revision as listed, or read by itself: then with its content. */
export type Revision = RevisionSummary & Partial<ReadRevision>;

export const historyKeys = {
  /** By the announcement's version too: every save adds a revision, so a new version asks again. */
  revisions: (id: number, version: number) => ['bulletins', 'revisions', id, 'list', version] as const,
  revision: (id: number, revision: number) => ['bulletins', 'revisions', id, revision] as const,
  trash: (page: number) => ['bulletins', 'trash', page] as const,
};

export const listRevisions = (id: number, signal?: AbortSignal) =>
  call<{ list: Revision[] }>(`/bulletins/${id}/revisions`, signal === undefined ? {} : { signal });

export const getRevision = (id: number, revision: number, signal?: AbortSignal) =>
  call<Revision & { content: string }>(
    `/bulletins/${id}/revisions/${revision}`,
    signal === undefined ? {} : { signal },
  );

export const restoreRevision = (id: number, revision: number, version: number) =>
  call<AdminBulletin>(`/bulletins/${id}/revisions/${revision}/restore`, { method: 'POST', body: { version } });

export const trashPageSize = 20;

export function listTrash(page: number, signal?: AbortSignal) {
  const query = new URLSearchParams({ page_index: String(page), page_size: String(trashPageSize) });
  return call<{ count: number; list: TrashItem[] }>(
    `/bulletins/trash?${query}`,
    signal === undefined ? {} : { signal },
  );
}

export const purgeBulletin = (id: number) => call<undefined>(`/bulletins/trash/${id}`, { method: 'DELETE' });

/** Deletes it from the trash for good, after the screen asked (docs/console.md#trash). */
export function usePurgeBulletin() {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: (item: TrashItem) => purgeBulletin(item.id),
    onSuccess: (_nothing, item) => {
      void client.invalidateQueries({ queryKey: bulletinKeys.all });
      notify({ text: `“${item.title}”已彻底删除` });
    },
  });
}

/** Saves an old revision as the newest (docs/console.md#revisions): the open announcement keeps
 * the answer, every list asks again, and the notice says which version became which. */
export function useRestoreRevision(
  bulletin: AdminBulletin,
  onSuccess: (restored: AdminBulletin, revision: Revision) => void,
) {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: (revision: Revision) => restoreRevision(bulletin.id, revision.id, bulletin.version),
    onSuccess: (restored, revision) => {
      client.setQueryData(bulletinKeys.one(restored.id), restored);
      void client.invalidateQueries({ queryKey: [...bulletinKeys.all, 'list'] });
      onSuccess(restored, revision);
      notify({ text: `已恢复到第 ${revision.version} 版，保存为第 ${restored.version} 版` });
    },
  });
}
