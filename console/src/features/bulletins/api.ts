import { call } from '../../lib/api';
import type { BulletinStatus } from '../../ui/status';

/** An announcement as the admin API sends it (server/src/bulletins/admin-view.ts). */
export interface AdminBulletin {
  id: number;
  title: string;
  content: string;
  topup: 0 | 1;
  status: BulletinStatus;
  publish_at: string;
  updated_at: string;
  version: number;
  /** When it goes back to being a draft by itself (wall-clock time on the server); null: never. */
  unpublish_at: string | null;
  /** When it stops being pinned by itself; null: never. */
  unpin_at: string | null;
}

export type ListFilter = 'all' | 'published' | 'pinned' | 'draft' | 'scheduled';

export const pageSize = 20;

export const bulletinKeys = {
  all: ['bulletins'] as const,
  list: (q: string, filter: ListFilter, page: number) => ['bulletins', 'list', q, filter, page] as const,
  one: (id: number) => ['bulletins', 'one', id] as const,
};

export function listBulletins(q: string, filter: ListFilter, page: number, signal?: AbortSignal) {
  const query = new URLSearchParams({ q, filter, page_index: String(page), page_size: String(pageSize) });
  return call<{ count: number; list: AdminBulletin[] }>(`/bulletins?${query}`, signal === undefined ? {} : { signal });
}

export const getBulletin = (id: number, signal?: AbortSignal) =>
  call<AdminBulletin>(`/bulletins/${id}`, signal === undefined ? {} : { signal });

export interface BulletinDraft {
  title: string;
  content: string;
  topup: 0 | 1;
  state: 'draft' | 'published';
  /** Wall-clock time on the server, or null for "now". */
  publish_at: string | null;
  /** When it leaves the site by itself, or null for never (docs/console.md#stopping-by-itself). */
  unpublish_at?: string | null;
  /** When it stops being pinned by itself, or null for never. */
  unpin_at?: string | null;
}

export const createBulletin = (draft: BulletinDraft) =>
  call<{ id: number; version: number }>('/bulletins', { method: 'POST', body: draft });

export const saveBulletin = (id: number, draft: BulletinDraft, version: number) =>
  call<AdminBulletin>(`/bulletins/${id}`, { method: 'PUT', body: { ...draft, version } });

export const removeBulletin = (id: number) => call<undefined>(`/bulletins/${id}`, { method: 'DELETE' });

export const restoreBulletin = (id: number) => call<AdminBulletin>(`/bulletins/${id}/restore`, { method: 'POST' });

/** Pins or unpins it, from the version the list showed. */
export const pinBulletin = (id: number, topup: 0 | 1, version: number) =>
  call<AdminBulletin>(`/bulletins/${id}`, { method: 'PUT', body: { topup, version } });

/** A new draft copied from it (docs/console.md#row-actions). */
export const duplicateBulletin = (id: number) =>
  call<{ id: number; version: number }>(`/bulletins/${id}/duplicate`, { method: 'POST' });
