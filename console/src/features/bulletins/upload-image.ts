import { ApiError } from '../../lib/api';

/** The picture types the file store takes (server/src/files/content-types.ts). */
export const pictureTypes: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
};

export interface UploadedPicture {
  path: string;
  width: number | null;
  height: number | null;
}

/** A file name the store accepts: no slashes, at most 200 characters, the type's extension. */
export function uploadName(file: File): string {
  const extension = pictureTypes[file.type] ?? 'png';
  const base = (file.name.replace(/\.[^.]*$/, '') || 'picture').replace(/[\\/\s]+/g, '-').slice(0, 120);
  return `${base}.${extension}`;
}

async function sizeOf(file: File): Promise<{ width: number | null; height: number | null }> {
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return { width: null, height: null };
  }
}

/** Uploads one picture to the file store, reporting progress from 0 to 1. XMLHttpRequest, since
 * fetch reports no upload progress. */
export async function uploadPicture(
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<UploadedPicture> {
  const size = await sizeOf(file);
  const path = await new Promise<string>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/v1/admin/files?name=${encodeURIComponent(uploadName(file))}`);
    request.setRequestHeader('content-type', file.type);
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      const body = (request.response ?? {}) as Record<string, unknown>;
      if (request.status === 201 && typeof body.path === 'string') resolve(body.path);
      else reject(ApiError.from(request.status, body));
    };
    request.onerror = () => reject(new ApiError(0, '上传中断，请检查网络后重试'));
    request.onabort = () => reject(new ApiError(0, '上传已取消'));
    signal?.addEventListener('abort', () => request.abort());
    request.send(file);
  });
  return { path, ...size };
}
