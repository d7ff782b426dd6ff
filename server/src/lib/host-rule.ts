import type { SiteConfig } from '@chat-site/contract';

/** The host rule (docs/public-api.md#host-rules): the primary domain (and www.) offers the fixed
 * Android APK only. Downloads and the page both follow it. */
export function isPrimaryHost(hostname: string, site: SiteConfig): boolean {
  const host = hostname.toLowerCase();
  return host === site.primaryDomain || host === `www.${site.primaryDomain}`;
}
