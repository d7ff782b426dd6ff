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

/**
 * Where the page may connect to and load images from: any HTTPS origin, plus the configured
 * addresses that are not HTTPS (http:// in local and development setups), which `https:` does
 * not cover.
 *
 * Not only the configured addresses: a region document fetched at run time names API addresses
 * no config knows (that is what region documents are for), and the API server the page reaches
 * names the CDN its pictures come from in its own app config. A policy is fixed when the page is
 * served, so it cannot list them; listing only the configured ones made the browser refuse the
 * very failover the site exists to do. `https:` costs little: reaching another origin is only a
 * risk once hostile script runs in the page, and script-src (the site's own files and the page's
 * inline code by hash) stays as strict as before, as do style-src and everything else. Plain
 * http: stays refused but for the configured addresses. See docs/site.md#content-security-policy.
 */
function networkSources(origins: string[]): string {
  return ['https:', ...new Set(origins.filter((origin) => !origin.startsWith('https:')))].join(' ');
}

/** The page's Content-Security-Policy: scripts and styles only from the site itself (and the
 * page's own inline ones, by hash), and network access and images over HTTPS anywhere, or to
 * the addresses the operator configured (see networkSources). */
export function pageCsp(
  site: SiteConfig,
  appConfig: AppConfig,
  region: RegionDocument | undefined,
  inline: InlineHashes = { scripts: [], styles: [] },
): string {
  const apiOrigins = [...site.apiAddrs, ...(region?.api_addrs.map((entry) => entry.addr) ?? [])];
  const cdn = appConfig.use_cdn === 1 ? [appConfig.common_cdn_bucket_url] : [];
  const collect = (urls: string[]) =>
    networkSources(urls.map(originOf).filter((origin): origin is string => origin !== undefined));
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
    `img-src 'self' data: ${images}`,
    "font-src 'self'",
    `connect-src 'self' ${connect}`,
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
