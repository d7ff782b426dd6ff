/** schema.org descriptions search engines read: each announcement, and the app itself. */
import type { SiteConfig } from '@chat-site/contract';
import type { PublishedBulletin } from './content.js';
import { rfc3339 } from './times.js';

export function newsArticle(
  entry: PublishedBulletin,
  product: string,
  origin: string,
  timeZone: string,
  image: string,
) {
  const publisher = { '@type': 'Organization', name: product, url: `${origin}/` };
  return {
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: entry.title,
    description: entry.summary,
    url: entry.url,
    mainEntityOfPage: entry.url,
    datePublished: rfc3339(entry.createdAt, timeZone),
    dateModified: rfc3339(entry.updatedAt, timeZone),
    inLanguage: 'zh-CN',
    image: [image],
    author: publisher,
    publisher,
  };
}

/** `origin` may be empty: the addresses are then relative, which JSON-LD resolves against the
 * page (schema.org's `url` is an IRI). */
export function softwareApplication(site: SiteConfig, origin: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'SoftwareApplication',
    name: site.productName,
    applicationCategory: 'CommunicationApplication',
    operatingSystem: 'Android, iOS, Windows, macOS',
    url: `${origin}/`,
    downloadUrl: `${origin}/#/download`,
    offers: { '@type': 'Offer', price: '0', priceCurrency: 'CNY' },
  };
}
