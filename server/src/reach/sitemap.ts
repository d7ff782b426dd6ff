/** What crawlers are told: everything may be fetched, and where the sitemap is. */
import { escapeXml } from './xml.js';

export interface SitemapUrl {
  loc: string;
  /** RFC 3339. */
  lastmod: string | undefined;
}

/** The sitemaps.org protocol allows this many addresses in one file. */
export const sitemapMaxUrls = 50_000;

export function buildSitemap(urls: SitemapUrl[]): string {
  const entries = urls.map(
    ({ loc, lastmod }) =>
      `<url><loc>${escapeXml(loc)}</loc>${lastmod === undefined ? '' : `<lastmod>${escapeXml(lastmod)}</lastmod>`}</url>`,
  );
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries,
    '</urlset>',
    '',
  ].join('\n');
}

export function buildRobotsTxt(sitemapUrl: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${sitemapUrl}\n`;
}
