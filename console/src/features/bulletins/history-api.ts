import { call } from '../../lib/api';
import type { AdminBulletin } from './api';
import type { Revision as ReadRevision, RevisionSummary, TrashItem } from '@chat-site/contract/admin';

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
