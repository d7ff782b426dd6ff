import { Upload } from 'tus-js-client';
import type { OperatingSystem } from '@chat-site/contract';
import type { CurrentRelease, Release, ReleaseBody, ReleaseCard } from '@chat-site/contract/admin';
import { ApiError, call } from '../../lib/api';

export type { Release };
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
  call<{ platforms: Card[] }>('/releases', { signal }).then((answer) => answer.platforms);

export const publishRelease = (release: NewRelease, signal?: AbortSignal) =>
  call<Release>('/releases', { method: 'POST', body: release, signal });

/** Deletes a hosted file nothing uses (a package uploaded for a release that was then cancelled). */
export const removeFile = (key: string) => call<undefined>(`/files/${encodeURIComponent(key)}`, { method: 'DELETE' });

/** Sets (or with null clears) a platform's lowest supported version; answers every platform's. */
export const setMinVersion = (os: Os, minVersion: string | null) =>
  call<Partial<Record<Os, string>>>(`/min-versions/${os}`, { method: 'PUT', body: { min_version: minVersion } });

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

/** 70.0 MB, in binary units as the site's download cards show sizes (docs/behaviour.md#the-download-screen). */
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
