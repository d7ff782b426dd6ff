import type { AppConfig, RegionDocument } from '@chat-site/contract';
import type { CdnCheck } from '@chat-site/contract/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { useNotify } from '../../ui/toasts';

export type { AppConfig, RegionDocument } from '@chat-site/contract';
export type { CdnCheck } from '@chat-site/contract/admin';

/** The public reads the settings start from (the same answers the site gets). */
export async function publicRead<T>(path: string, signal: AbortSignal): Promise<T> {
  const response = await fetch(`/v1${path}`, { signal, cache: 'no-store' });
  if (!response.ok) throw new Error(`服务器返回 ${response.status}`);
  return (await response.json()) as T;
}

export const settingsKeys = { appConfig: ['appconfig'] as const, region: ['region'] as const };

/** Saves the CDN setting; the public app config is read again. */
export function useSaveCdn() {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: (config: AppConfig) => call<AppConfig>('/appconfig', { method: 'PUT', body: config }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: settingsKeys.appConfig });
      notify({ text: 'CDN 设置已保存' });
    },
  });
}

/** Asks the server whether the CDN serves the site's files (the saved address, or `url`). */
export function useCheckCdn() {
  return useMutation({
    mutationFn: (url: string) =>
      call<CdnCheck>('/settings/cdn-check', { method: 'POST', body: url === '' ? {} : { url } }),
  });
}

/** Saves the region document; the public one is read again. */
export function useSaveRegion() {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: (region: { api_addrs: { addr: string }[]; allocator_addrs: { addr: string }[] }) =>
      call<RegionDocument>('/region', { method: 'PUT', body: region }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: settingsKeys.region });
      notify({ text: '区域文件已保存' });
    },
  });
}
