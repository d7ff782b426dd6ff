/**
 * The site's listing in the page it sends (docs/reach.md#filings-stores-and-verification):
 * the search engines' verification tags in the head, the filing numbers as a line under the
 * footer, and the store pages the download screen links, each only when set. All of it goes
 * into the page as sent, so it is there before any script and costs nothing while unset.
 */
import { escapeHtml, siteStoresMetaName, type Language, type SiteStores } from '@chat-site/contract';
import { verificationTags, type SearchEngine, type SiteListing } from '@chat-site/contract/admin';
import { beforeHeadEnd } from '../lib/head-insert.js';

/** Where each filing number is looked up. The public security site finds a record by its digits. */
export const icpFilingSite = 'https://beian.miit.gov.cn/';
export const policeFilingSite = (number: string): string =>
  `https://beian.mps.gov.cn/#/query/webSearch?code=${number.replace(/\D/g, '')}`;

/** Shipped with the site (web/public), so the page loads nothing from elsewhere. */
export const policeBadgePath = '/police-badge.svg';

const filingsLabel: Record<Language, string> = { 'zh-CN': '备案信息', 'zh-TW': '備案資訊', en: 'Filings' };

function verificationMeta(listing: SiteListing): string {
  return (Object.keys(verificationTags) as SearchEngine[])
    .filter((engine) => listing.verification[engine] !== '')
    .map((engine) => `<meta name="${verificationTags[engine]}" content="${escapeHtml(listing.verification[engine])}">`)
    .join('\n');
}

/** Only the addresses that are set; undefined when none is. */
export function siteStores(listing: SiteListing): SiteStores | undefined {
  const stores = Object.fromEntries(Object.entries(listing.stores).filter(([, url]) => url !== ''));
  const found: SiteStores = {};
  if (listing.harmonyos_url !== '') found.harmonyos = listing.harmonyos_url;
  if (Object.keys(stores).length > 0) found.stores = stores;
  return Object.keys(found).length > 0 ? found : undefined;
}

const link = (href: string, body: string) =>
  `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer" class="inline-flex items-center gap-1 hover:text-fg">${body}</a>`;

/** The filing numbers, outside the site's root so that no render replaces them: below the
 * footer once it shows, on every screen, in every language (a number reads the same in each). */
function filingsLine(listing: SiteListing, language: Language): string {
  const links: string[] = [];
  if (listing.icp_filing !== '') links.push(link(icpFilingSite, escapeHtml(listing.icp_filing)));
  if (listing.police_filing !== '') {
    const badge = listing.police_badge ? `<img src="${policeBadgePath}" alt="" width="16" height="16">` : '';
    links.push(link(policeFilingSite(listing.police_filing), `${badge}${escapeHtml(listing.police_filing)}`));
  }
  if (links.length === 0) return '';
  return `<section aria-label="${filingsLabel[language]}" data-filings class="flex flex-col items-center justify-center gap-x-4 gap-y-1 border-t border-line bg-surface/40 px-4 py-4 text-xs text-muted sm:flex-row">${links.join('')}</section>`;
}

/** The page with the listing's tags and line; the page itself when nothing is set. */
export function withListing(page: string, listing: SiteListing, language: Language): string {
  const stores = siteStores(listing);
  const head = [
    verificationMeta(listing),
    stores === undefined ? '' : `<meta name="${siteStoresMetaName}" content="${escapeHtml(JSON.stringify(stores))}">`,
  ].filter((tag) => tag !== '');
  const withHead = head.length === 0 ? page : beforeHeadEnd(page, head.join('\n'));
  const line = filingsLine(listing, language);
  return line === '' ? withHead : withHead.replace('</body>', () => `${line}\n</body>`);
}
