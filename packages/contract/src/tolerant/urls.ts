/**
 * Where images and downloads are actually fetched from. Stored announcement HTML and package
 * lists hold paths relative to the API; the CDN, when on, must serve them instead of the API.
 */
import { trimTrailingSlashes } from './fields.js';
import type { CdnSettings } from './types.js';

const previewPattern = /(^|\/)file\/preview\/(.+)$/;
/** The CDN serves these with a fixed content type, and a query string defeats its cache. */
const queryFreePattern = /\.(svg|ico)$/i;
const schemePattern = /^[a-z][a-z0-9+.-]*:/i;
const originPattern = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/** The CDN address of a file/preview URL, or undefined when the CDN is off or the URL is not one. */
export function cdnUrl(url: string, cdn: CdnSettings): string | undefined {
  const bucketUrl = trimTrailingSlashes(cdn.bucketUrl);
  if (!cdn.useCdn || bucketUrl === '') return undefined;
  const key = previewPattern.exec(url.trim())?.[2];
  if (key === undefined) return undefined;
  const path = key.replace(/[?#].*$/, '');
  return `${bucketUrl}/${queryFreePattern.test(path) ? path : key}`;
}

/**
 * The src an <img> in announcement HTML should load. Without a known API address the src is
 * left for the browser to resolve against the page, which is the same-origin deployment.
 */
export function resolveImageSrc(src: string, opts: { apiAddr: string | null; cdn: CdnSettings }): string {
  const fromCdn = cdnUrl(src, opts.cdn);
  if (fromCdn !== undefined) return fromCdn;
  const trimmed = src.trim();
  if (trimmed === '' || schemePattern.test(trimmed) || trimmed.startsWith('//')) return src;
  if (opts.apiAddr === null) return src;
  const apiAddr = trimTrailingSlashes(opts.apiAddr.trim());
  if (trimmed.startsWith('/')) {
    const origin = originPattern.exec(apiAddr)?.[0];
    return origin === undefined ? src : `${origin}${trimmed}`;
  }
  return `${apiAddr}/v1/${trimmed}`;
}

/** The href of a download button: CDN first, then absolute URLs as sent, then relative to base. */
export function resolveDownloadUrl(url: string, opts: { base: string; cdn: CdnSettings }): string {
  const fromCdn = cdnUrl(url, opts.cdn);
  if (fromCdn !== undefined) return fromCdn;
  const trimmed = url.trim();
  if (trimmed === '' || /^https?:/i.test(trimmed)) return trimmed;
  return `${trimTrailingSlashes(opts.base.trim())}/${trimmed.replace(/^\/+/, '')}`;
}
