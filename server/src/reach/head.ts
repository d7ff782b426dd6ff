/** What the site's page carries in its head for feed readers and search engines. */
import type { SiteConfig } from '@chat-site/contract';
import { beforeHeadEnd } from '../lib/head-insert.js';
import { reachPaths } from './addresses.js';
import { pictureTags, sitePicture } from './picture/pictures.js';
import { softwareApplication } from './json-ld.js';
import { reachText } from './text.js';
import { escapeAttribute, scriptJson } from './xml.js';

/** Feed links, the site's share picture and the app's JSON-LD (a data block, which the page's
 * CSP does not run). */
export function siteHeadTags(site: SiteConfig, origin: string): string {
  const title = escapeAttribute(reachText.feedTitle(site.productName));
  const changelog = escapeAttribute(reachText.changelogTitle(site.productName));
  return [
    ...pictureTags(sitePicture(site.productName, origin)),
    '<meta name="twitter:card" content="summary_large_image">',
    `<link rel="alternate" type="application/atom+xml" title="${title}" href="${reachPaths.atom}">`,
    `<link rel="alternate" type="application/rss+xml" title="${title}" href="${reachPaths.rss}">`,
    `<link rel="alternate" type="application/atom+xml" title="${changelog}" href="${reachPaths.changelogAtom}">`,
    `<script type="application/ld+json">${scriptJson(softwareApplication(site, origin))}</script>`,
  ].join('\n');
}

/** The page with those tags before its </head>. */
export function withSiteHeadTags(page: string, site: SiteConfig, origin: string): string {
  return beforeHeadEnd(page, siteHeadTags(site, origin));
}
