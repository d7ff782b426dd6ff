import type { SiteConfig } from '@chat-site/contract';
import { beforeHeadEnd } from '../lib/head-insert.js';

/**
 * Safari on iOS shows its Smart App Banner (install or open the App Store app) for this tag.
 * Only when the operator turns it on, and never on the primary domain, which offers Android only.
 */
export function withSmartAppBanner(page: string, site: SiteConfig, primaryHost: boolean): string {
  if (site.iosSmartAppBanner !== true || primaryHost) return page;
  // The id is digits only (checked at start-up): nothing to escape.
  const tag = `<meta name="apple-itunes-app" content="app-id=${site.iosAppStoreId}">`;
  return beforeHeadEnd(page, tag);
}
