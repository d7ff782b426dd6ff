import { call } from '../../lib/api';
import type { AdminBulletin, BulletinCreateBody, ListFilter } from '@chat-site/contract/admin';

export type { AdminBulletin, ListFilter };

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

/** What the editor sends: every field the server would otherwise default is named
 * (docs/console.md#stopping-by-itself for the end times). */
export type BulletinDraft = BulletinCreateBody & Required<Pick<BulletinCreateBody, 'topup' | 'state' | 'publish_at'>>;

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
