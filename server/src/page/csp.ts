import type { AppConfig, RegionDocument, SiteConfig } from '@chat-site/contract';
import type { InlineHashes } from './inline-hashes.js';

function originOf(url: string): string | undefined {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** The page's Content-Security-Policy: scripts and styles only from the site itself (and the
 * page's own inline ones, by hash), and network access only to the API addresses, region
 * documents, edge service and CDN the operator configured. */
export function pageCsp(
  site: SiteConfig,
  appConfig: AppConfig,
  region: RegionDocument | undefined,
  inline: InlineHashes = { scripts: [], styles: [] },
): string {
  const apiOrigins = [...site.apiAddrs, ...(region?.api_addrs.map((entry) => entry.addr) ?? [])];
  const cdn = appConfig.use_cdn === 1 ? [appConfig.common_cdn_bucket_url] : [];
  const collect = (urls: string[]) =>
    [...new Set(urls.map(originOf).filter((origin): origin is string => origin !== undefined))].join(' ');
  const images = collect([...apiOrigins, ...cdn]);
  const connect = collect([
    ...apiOrigins,
    ...site.regionDocumentUrls,
    ...(region?.allocator_addrs.map((entry) => entry.addr) ?? []),
    ...(site.androidEdgeUrl === undefined ? [] : [site.androidEdgeUrl]),
    ...cdn,
  ]);
  return [
    "default-src 'self'",
    ["script-src 'self'", ...inline.scripts].join(' '),
    ["style-src 'self'", ...inline.styles].join(' '),
    `img-src 'self' data: ${images}`.trimEnd(),
    "font-src 'self'",
    `connect-src 'self' ${connect}`.trimEnd(),
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
