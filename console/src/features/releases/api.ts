import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Upload } from 'tus-js-client';
import type { OperatingSystem } from '@chat-site/contract';
import type {
  CurrentRelease,
  Release,
  ReleaseBody,
  ReleaseCard,
  ReleaseCards,
  Rollout,
} from '@chat-site/contract/admin';
import { ApiError, call } from '../../lib/api';
import { useNotify } from '../../ui/toasts';

export type { Release, Rollout };
export type Current = CurrentRelease;
export type Card = ReleaseCard;
export type NewRelease = ReleaseBody;
export type Os = OperatingSystem;

export const osLabels: Record<Os, string> = { android: 'Android', ios: 'iOS', windows: 'Windows', mac: 'Mac' };

/** The package files each platform takes (server/src/packages/releases.ts). */
export const osExtensions: Record<Os, string> = {
  android: '.apk',
  ios: '.ipa',
  windows: '.exe,.msi,.zip',
  mac: '.dmg,.pkg,.zip',
};

export const releasesKey = ['releases'] as const;

export const listReleases = (signal?: AbortSignal) =>
  call<ReleaseCards>('/releases', { signal }).then((answer) => answer.platforms);

export const publishRelease = (release: NewRelease, signal?: AbortSignal) =>
  call<Release>('/releases', { method: 'POST', body: release, signal });

/** Deletes a hosted file nothing uses (a package uploaded for a release that was then cancelled). */
export const removeFile = (key: string) => call<undefined>(`/files/${encodeURIComponent(key)}`, { method: 'DELETE' });

/** Sets (or with null clears) a platform's lowest supported version; answers every platform's. */
export const setMinVersion = (os: Os, minVersion: string | null) =>
  call<Partial<Record<Os, string>>>(`/min-versions/${os}`, { method: 'PUT', body: { min_version: minVersion } });

/** A staged roll-out's three actions (docs/releases.md#staged-roll-out). */
export type RolloutAction = { percentage: number } | 'halt' | 'resume';

export const changeRollout = (os: Os, action: RolloutAction) =>
  typeof action === 'object'
    ? call<Rollout>(`/rollouts/${os}`, { method: 'PUT', body: action })
    : call<Rollout>(`/rollouts/${os}/${action}`, { method: 'POST' });

export const rollBack = (id: number) => call<Release>(`/releases/${id}/rollback`, { method: 'POST' });

/** Uploads a package with the tus protocol (docs/releases.md#resumable-uploads): in 8 MiB
 * chunks, each retried after a cut, an interrupted upload of the same file resumed where it
 * stopped. Answers the hosted file's key, for publishRelease. */
export function uploadPackage(
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  return new Promise((resolve, reject) => {
    // Once the server holds the whole file there is no upload left to terminate.
    let finished = false;
    const upload = new Upload(file, {
      endpoint: '/v1/admin/uploads',
      chunkSize: 8 * 1024 * 1024,
      retryDelays: [0, 1000, 3000, 5000, 10000],
      metadata: { filename: file.name, filetype: file.type },
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => onProgress(total === 0 ? 0 : sent / total),
      onError: (error) => {
        finished = true;
        reject(tusRefusal(error));
      },
      onSuccess: ({ lastResponse }) => {
        finished = true;
        try {
          resolve((JSON.parse(lastResponse.getBody()) as { key: string }).key);
        } catch {
          reject(new ApiError(0, '上传完成，但服务器的回答无法读取'));
        }
      },
    });
    // Cancelled: the request in flight stops and the server is told to drop what it holds
    // (tus termination, DELETE), so no staged file stays behind.
    const cancel = () => {
      if (finished) return;
      upload.abort(true).catch(() => undefined);
      reject(new ApiError(0, '上传已取消'));
    };
    if (signal?.aborted === true) return cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    void upload.findPreviousUploads().then((previous) => {
      if (signal?.aborted === true) return;
      const last = previous[0];
      if (last !== undefined) upload.resumeFromPreviousUpload(last);
      upload.start();
    });
  });
}

/** The server's refusal, said from its code, when it refused; else the connection failed. */
function tusRefusal(error: Error): ApiError {
  const body = (error as { originalResponse?: { getBody(): string } | null }).originalResponse?.getBody();
  try {
    const answer = JSON.parse(body ?? '') as Record<string, unknown>;
    if (typeof answer.status === 'number') return ApiError.from(answer.status, answer);
  } catch {
    // not JSON: fall through
  }
  return new ApiError(0, '上传中断，请检查网络后重试');
}

/** 70.0 MB, in binary units as the site's download cards show sizes (docs/site.md#the-download-screen). */
export function formatSize(bytes: number | null): string {
  if (bytes === null) return '—';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** What 发布 sends: the release, and its package file to upload first (null: none was chosen;
 * absent: the release names an outside address), and the files of its payloads, by their place
 * in `release.payloads` (absent: that payload names an outside address). */
export interface PublishInput {
  release: NewRelease;
  file?: File | null;
  payloadFiles?: (File | undefined)[];
  onProgress: (fraction: number) => void;
  signal: AbortSignal;
}

async function uploadAndPublish({
  release,
  file,
  payloadFiles = [],
  onProgress,
  signal,
}: PublishInput): Promise<Release> {
  if (file === null) throw new Error('请选择安装包文件');
  const files = [file, ...payloadFiles];
  if (files.every((one) => one === undefined)) return publishRelease(release, signal);
  // One bar for every file: the share of all their bytes sent.
  const total = files.reduce((sum, one) => sum + (one?.size ?? 0), 0);
  let done = 0;
  onProgress(0);
  const keys: (string | undefined)[] = [];
  // Cancelled on the way: the files already stored go too, so nothing is left behind (one another
  // release also uses stays: the server refuses to delete it).
  const dropStored = () =>
    Promise.all(keys.flatMap((key) => (key === undefined ? [] : [removeFile(key).catch(() => undefined)])));
  try {
    for (const one of files) {
      const before = done;
      const progress = (part: number) => onProgress(total === 0 ? 0 : (before + part * (one?.size ?? 0)) / total);
      keys.push(one === undefined ? undefined : await uploadPackage(one, progress, signal));
      done += one?.size ?? 0;
    }
  } catch (error) {
    if (signal.aborted) await dropStored();
    throw error;
  }
  if (signal.aborted) {
    // Cancelled between the last byte and the release.
    await dropStored();
    throw new Error('上传已取消');
  }
  const [key, ...payloadKeys] = keys;
  return publishRelease(
    {
      ...release,
      ...(key !== undefined && { file_key: key }),
      ...(release.payloads !== undefined && {
        payloads: release.payloads.map((payload, at) => {
          const payloadKey = payloadKeys[at];
          return payloadKey === undefined ? payload : { ...payload, file_key: payloadKey };
        }),
      }),
    },
    signal,
  );
}

/** Publishes a release (docs/console.md#releases-settings-and-numbers): the cards ask again,
 * and the notice names it. */
export function usePublishRelease(config: { onSuccess?: () => void; onSettled?: () => void } = {}) {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: uploadAndPublish,
    onSuccess: async (release) => {
      await client.invalidateQueries({ queryKey: releasesKey });
      notify({ text: `${osLabels[release.os]} ${release.version ?? ''} 已发布` });
      config.onSuccess?.();
    },
    ...(config.onSettled !== undefined && { onSettled: config.onSettled }),
  });
}

/** Makes an older release the current one again. */
export function useRollBack() {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: (release: Release) => rollBack(release.id),
    onSuccess: async (release) => {
      await client.invalidateQueries({ queryKey: releasesKey });
      notify({ text: `${osLabels[release.os]} 已回滚到 ${release.version ?? `版本 #${release.id}`}` });
    },
  });
}

/** Sets (or with "" clears) a platform's 最低支持版本. */
export function useSetMinVersion(os: Os) {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: (value: string) => setMinVersion(os, value.trim() === '' ? null : value.trim()),
    onSuccess: async (all) => {
      await client.invalidateQueries({ queryKey: releasesKey });
      const now = all[os];
      notify({
        text: now === undefined ? `${osLabels[os]} 不再限制最低版本` : `${osLabels[os]} 最低支持版本为 ${now}`,
      });
    },
  });
}

/** Raises, halts or resumes a platform's roll-out; the notice says what installs are offered now. */
export function useChangeRollout(os: Os) {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: (action: RolloutAction) => changeRollout(os, action),
    onSuccess: async (rollout) => {
      await client.invalidateQueries({ queryKey: releasesKey });
      notify({ text: `${osLabels[os]} ${rolloutSentence(rollout)}` });
    },
  });
}

/** What a roll-out offers now, in one sentence (after the platform's name). */
export function rolloutSentence(rollout: Rollout): string {
  const version = rollout.version ?? `版本 #${rollout.release_id}`;
  const previous = rollout.previous_version ?? `版本 #${rollout.previous_release_id}`;
  if (rollout.halted) return `${version} 已暂停推送：尚未更新的安装和下载页都提供 ${previous}`;
  if (rollout.percentage === 100) return `${version} 已推送给全部安装`;
  return `${version} 推送给 ${rollout.percentage}% 的安装，其余安装仍提供 ${previous}`;
}
