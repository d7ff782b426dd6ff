/** What the site's page carries in its head for feed readers, link previewers and search
 * engines (docs/reach.md#feeds-share-pages-and-search-engines). */
import type { SiteConfig } from '@chat-site/contract';
import { beforeHeadEnd } from '../lib/head-insert.js';
import { reachPaths } from './addresses.js';
import { pictureTags, sitePicture } from './picture/pictures.js';
import { softwareApplication } from './json-ld.js';
import { reachText } from './text.js';
import { escapeAttribute, scriptJson } from './xml.js';

/** The page's own <title> and meta description, as its build wrote them in its language: HTML
 * text already escaped (web/build/prerender.ts, fillPrerenderMarkers), so they go into an
 * attribute as they are. The placeholder page of an unbuilt site has no description. */
function ownWords(page: string, site: SiteConfig): { title: string; description: string } {
  const title = /<title>([^<]*)<\/title>/.exec(page)?.[1];
  const description = /<meta\s+name="description"\s+content="([^"]*)"/.exec(page)?.[1];
  return {
    title: title ?? escapeAttribute(site.productName),
    description: description ?? escapeAttribute(reachText.siteLine),
  };
}

/** The link preview's words and address, the site's share picture, the feed links and the
 * app's JSON-LD (a data block, which the page's CSP does not run). */
function siteHeadTags(page: string, site: SiteConfig, origin: string): string {
  const feed = escapeAttribute(reachText.feedTitle(site.productName));
  const changelog = escapeAttribute(reachText.changelogTitle(site.productName));
  const { title, description } = ownWords(page, site);
  return [
    '<meta property="og:type" content="website">',
    `<meta property="og:title" content="${title}">`,
    `<meta property="og:description" content="${description}">`,
    `<meta property="og:url" content="${escapeAttribute(origin)}/">`,
    ...pictureTags(sitePicture(site.productName, origin)),
    '<meta name="twitter:card" content="summary_large_image">',
    `<meta name="twitter:title" content="${title}">`,
    `<link rel="alternate" type="application/atom+xml" title="${feed}" href="${reachPaths.atom}">`,
    `<link rel="alternate" type="application/rss+xml" title="${feed}" href="${reachPaths.rss}">`,
    `<link rel="alternate" type="application/atom+xml" title="${changelog}" href="${reachPaths.changelogAtom}">`,
    `<script type="application/ld+json">${scriptJson(softwareApplication(site, origin))}</script>`,
  ].join('\n');
}

/** The page with those tags before its </head>. */
export function withSiteHeadTags(page: string, site: SiteConfig, origin: string): string {
  return beforeHeadEnd(page, siteHeadTags(page, site, origin));
}
