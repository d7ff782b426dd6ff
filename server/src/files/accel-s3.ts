/**
 * X-Accel-Redirect over an S3 store (docs/storage.md#with-s3): the proxy's internal location
 * fetches the object from the one S3 address it is configured with, using the path and query of
 * a URL presigned here. The server chooses which object and which bytes, never where they come
 * from.
 */
import type { ByteRange } from '../storage/index.js';
import type { S3Storage } from '../storage/s3-store.js';

/** How long a presigned URL works: long enough for the proxy to ask for it at once, short enough
 * that one that leaks (a log line, an error page) is soon worthless. */
export const presignSeconds = 60;

/** The headers that send the proxy to the object: X-Accel-Redirect, and X-Accel-S3-Range with the
 * one range to ask the store for (none for the whole file). Both are read by the proxy and never
 * reach the visitor (nginx passes no X-Accel-* header on). */
export async function s3AccelRedirect(
  prefix: string,
  storage: S3Storage,
  key: string,
  method: 'GET' | 'HEAD',
  range: ByteRange | undefined,
): Promise<Record<string, string>> {
  const url = await storage.presign(key, method, presignSeconds);
  const headers: Record<string, string> = { 'x-accel-redirect': `${prefix}${url.pathname.slice(1)}${url.search}` };
  if (range !== undefined) headers['x-accel-s3-range'] = `bytes=${range.start}-${range.end}`;
  return headers;
}
