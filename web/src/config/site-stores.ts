import { siteStoresMetaName, type SiteStores } from '@chat-site/contract';

/** The store pages the server writes into the page when the operator has set any
 * (docs/reach.md#filings-stores-and-verification); none in the build's prerender. */
export function readSiteStores(): SiteStores {
  if (import.meta.env.SSR) return {};
  const meta = document.querySelector<HTMLMetaElement>(`meta[name="${siteStoresMetaName}"]`);
  return meta === null ? {} : (JSON.parse(meta.content) as SiteStores);
}
