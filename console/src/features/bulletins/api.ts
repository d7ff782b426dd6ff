import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, saveTimeoutMs } from '../../lib/api';
import type {
  AdminBulletin,
  AdminBulletinPage,
  BulletinCreateBody,
  BulletinCreated,
  ListFilter,
} from '@chat-site/contract/admin';
import { useNotify } from '../../ui/toasts';

export type { AdminBulletin, ListFilter };

export const pageSize = 20;

export const bulletinKeys = {
  all: ['bulletins'] as const,
  list: (q: string, filter: ListFilter, page: number) => ['bulletins', 'list', q, filter, page] as const,
  one: (id: number) => ['bulletins', 'one', id] as const,
};

export function listBulletins(q: string, filter: ListFilter, page: number, signal?: AbortSignal) {
  const query = new URLSearchParams({ q, filter, page_index: String(page), page_size: String(pageSize) });
  return call<AdminBulletinPage>(`/bulletins?${query}`, signal === undefined ? {} : { signal });
}

export const getBulletin = (id: number, signal?: AbortSignal) =>
  call<AdminBulletin>(`/bulletins/${id}`, signal === undefined ? {} : { signal });

/** What the editor sends: every field the server would otherwise default is named
 * (docs/console.md#stopping-by-itself for the end times). */
export type BulletinDraft = BulletinCreateBody & Required<Pick<BulletinCreateBody, 'topup' | 'state' | 'publish_at'>>;

export const createBulletin = (draft: BulletinDraft) =>
  call<BulletinCreated>('/bulletins', { method: 'POST', body: draft, timeoutMs: saveTimeoutMs });

export const saveBulletin = (id: number, draft: BulletinDraft, version: number) =>
  call<AdminBulletin>(`/bulletins/${id}`, {
    method: 'PUT',
    body: { ...draft, version },
    timeoutMs: saveTimeoutMs,
  });

/** Where a visitor reads it on the public site (the site's hash route, web/src/config/paths.ts). */
export const publicAddress = (id: number) => `/#/announcement/${id}`;

export const removeBulletin = (id: number) => call<undefined>(`/bulletins/${id}`, { method: 'DELETE' });

export const restoreBulletin = (id: number) => call<AdminBulletin>(`/bulletins/${id}/restore`, { method: 'POST' });

/** Pins or unpins it, from the version the list showed. */
export const pinBulletin = (id: number, topup: 0 | 1, version: number) =>
  call<AdminBulletin>(`/bulletins/${id}`, { method: 'PUT', body: { topup, version } });

/** A new draft copied from it (docs/console.md#row-actions). */
export const duplicateBulletin = (id: number) =>
  call<BulletinCreated>(`/bulletins/${id}/duplicate`, { method: 'POST' });

const reason = (error: unknown) => (error instanceof Error ? error.message : '');

/** What a save sends: no id makes a new announcement; version is the one the editor opened. */
export interface SaveInput {
  id: number | undefined;
  draft: BulletinDraft;
  version: number | undefined;
}

/** A new announcement is read back whole, so the editor holds what an existing one's save answers. */
async function saveOrCreate({ id, draft, version }: SaveInput): Promise<AdminBulletin> {
  if (id === undefined) return getBulletin((await createBulletin(draft)).id);
  return saveBulletin(id, draft, version ?? 0);
}

/** Saves (or creates) an announcement: the open one keeps the answer, every list asks again.
 * The editor says what happened itself, as the words depend on its button. */
export function useSaveBulletin<Input extends SaveInput>(config: {
  onSuccess: (bulletin: AdminBulletin, input: Input) => void;
  onError: (error: Error, input: Input) => void;
  onSettled?: () => void;
}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) => saveOrCreate(input),
    onSuccess: (bulletin, input) => {
      client.setQueryData(bulletinKeys.one(bulletin.id), bulletin);
      void client.invalidateQueries({ queryKey: [...bulletinKeys.all, 'list'] });
      config.onSuccess(bulletin, input);
    },
    onError: config.onError,
    ...(config.onSettled !== undefined && { onSettled: config.onSettled }),
  });
}

/** Deletes an announcement, with 撤销 in the notice (docs/console.md#row-actions), from a row or
 * from the editor alike. `onError` replaces the notice of a failure (the editor shows it inline). */
export function useDeleteBulletin(config: { onSuccess?: (id: number) => void; onError?: (error: Error) => void } = {}) {
  const client = useQueryClient();
  const notify = useNotify();
  const undo = (id: number) => {
    restoreBulletin(id)
      .then(() => {
        void client.invalidateQueries({ queryKey: bulletinKeys.all });
        notify({ text: '公告已恢复' });
      })
      .catch((error: unknown) => notify({ text: `撤销失败：${reason(error)}` }));
  };
  return useMutation({
    mutationFn: (id: number) => removeBulletin(id),
    onSuccess: (_nothing, id) => {
      // Not asked again while an editor showing it closes: it is gone.
      client.removeQueries({ queryKey: bulletinKeys.one(id) });
      void client.invalidateQueries({ queryKey: bulletinKeys.all });
      config.onSuccess?.(id);
      notify({ text: '公告已删除', action: { label: '撤销', run: () => undo(id) } });
    },
    onError: (error) => (config.onError ?? ((failed) => notify({ text: `删除失败：${failed.message}` })))(error),
  });
}

/** Brings a deleted announcement back from the trash (docs/console.md#trash). */
export function useRestoreBulletin() {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: (bulletin: Pick<AdminBulletin, 'id' | 'title'>) => restoreBulletin(bulletin.id),
    onSuccess: (_restored, bulletin) => {
      void client.invalidateQueries({ queryKey: bulletinKeys.all });
      notify({ text: `“${bulletin.title}”已恢复` });
    },
  });
}

/** Pins or unpins it from the list; a refusal refreshes the list too, as it was out of date. */
export function usePinBulletin() {
  const client = useQueryClient();
  const notify = useNotify();
  const refresh = () => void client.invalidateQueries({ queryKey: bulletinKeys.all });
  return useMutation({
    mutationFn: (bulletin: AdminBulletin) => pinBulletin(bulletin.id, bulletin.topup === 1 ? 0 : 1, bulletin.version),
    onSuccess: (saved) => {
      refresh();
      notify({ text: saved.topup === 1 ? '已置顶' : '已取消置顶' });
    },
    onError: (error) => {
      refresh();
      notify({ text: `操作失败：${reason(error)}` });
    },
  });
}

/** Copies it into a new draft; `onSuccess` gets the copy (the list opens it). */
export function useDuplicateBulletin(config: { onSuccess?: (made: { id: number }) => void } = {}) {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: (id: number) => duplicateBulletin(id),
    onSuccess: (made) => {
      void client.invalidateQueries({ queryKey: bulletinKeys.all });
      config.onSuccess?.(made);
      notify({ text: '已复制为新草稿' });
    },
    onError: (error) => notify({ text: `复制失败：${reason(error)}` }),
  });
}
