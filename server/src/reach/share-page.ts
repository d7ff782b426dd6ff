/**
 * The crawlable page of one announcement, /a/{id}. Link previewers and search engines read its
 * title, summary, Open Graph, Twitter and JSON-LD tags; a browser runs the same-origin script,
 * which sends it on to the announcement inside the site. Crawlers that do not run scripts stay
 * on the tags (a meta refresh would send some of them to the site's shell), and a reader
 * without scripts has a visible link.
 */
import { createHash } from 'node:crypto';
import type { PublishedBulletin } from './content.js';
import { newsArticle } from './json-ld.js';
import { pictureTags, type PictureMeta } from './picture/pictures.js';
import { reachPaths } from './addresses.js';
import { reachText, reachTexts, type ReachText } from './text.js';
import { toWireTime } from '../lib/time.js';
import { rfc3339 } from './times.js';
import { escapeAttribute, escapeXml as escape, scriptJson } from './xml.js';

const style =
  'body{margin:0;font:16px/1.7 system-ui,sans-serif;background:#0b1220;color:#e5e7eb}' +
  'main{max-width:600px;margin:0 auto;padding:48px 20px}h1{font-size:1.5rem;line-height:1.4;margin:0 0 8px}' +
  'p{margin:0 0 16px}.date{color:#94a3b8;font-size:.875rem}a{color:#60a5fa}';

/** The share page's own policy: its one script file and its one style block, nothing else. */
export const sharePageCsp = [
  "default-src 'none'",
  "script-src 'self'",
  `style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Sends the browser to the address of the page's continue link; replace() keeps the share
 * address out of the back button's way. */
export const continueScript =
  "var link=document.querySelector('a[data-continue]');if(link)location.replace(link.href);\n";

export interface SharePageData {
  entry: PublishedBulletin;
  product: string;
  origin: string;
  timeZone: string;
  /** The picture link previewers show (picture/pictures.ts). */
  picture: PictureMeta;
  /** The words of the page's language. */
  text: ReachText;
  /** The page in every language, for hreflang (docs/reach.md#languages-of-share-pages-and-feeds). */
  alternates: { language: string; url: string }[];
}

function metaTags({ entry, product, origin, timeZone, picture, text, alternates }: SharePageData): string[] {
  const property = (name: string, content: string) => `<meta property="${name}" content="${escapeAttribute(content)}">`;
  const named = (name: string, content: string) => `<meta name="${name}" content="${escapeAttribute(content)}">`;
  return [
    named('description', entry.summary),
    `<link rel="canonical" href="${escapeAttribute(entry.url)}">`,
    ...alternates.map(
      (alternate) => `<link rel="alternate" hreflang="${alternate.language}" href="${escapeAttribute(alternate.url)}">`,
    ),
    `<link rel="alternate" type="application/atom+xml" href="${escapeAttribute(origin + reachPaths.atom)}">`,
    property('og:type', 'article'),
    property('og:site_name', product),
    property('og:locale', text.ogLocale),
    ...reachLocales(text),
    property('og:title', entry.title),
    property('og:description', entry.summary),
    property('og:url', entry.url),
    ...pictureTags(picture),
    property('article:published_time', rfc3339(entry.createdAt, timeZone)),
    property('article:modified_time', rfc3339(entry.updatedAt, timeZone)),
    named('twitter:card', 'summary_large_image'),
    named('twitter:title', entry.title),
    named('twitter:description', entry.summary),
  ];
}

/** og:locale:alternate for the languages the page is also in. */
const reachLocales = (text: ReachText) =>
  Object.values(reachTexts)
    .filter((other) => other !== text)
    .map((other) => `<meta property="og:locale:alternate" content="${other.ogLocale}">`);

function document(head: string[], body: string[], language: string = reachText.language): string {
  return [
    '<!doctype html>',
    `<html lang="${language}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    ...head,
    `<style>${style}</style>`,
    '</head>',
    '<body><main>',
    ...body,
    '</main></body>',
    '</html>',
    '',
  ].join('\n');
}

export function renderSharePage(data: SharePageData): string {
  const { entry, product, origin, timeZone, picture, text } = data;
  return document(
    [
      `<title>${escape(`${entry.title} - ${product}`)}</title>`,
      ...metaTags(data),
      `<script type="application/ld+json">${scriptJson(newsArticle(entry, product, origin, timeZone, picture.url))}</script>`,
      `<script src="${reachPaths.continueScript}" defer></script>`,
    ],
    [
      `<h1>${escape(entry.title)}</h1>`,
      `<p class="date">${escape(text.publishedOn(toWireTime(entry.createdAt, timeZone).slice(0, 10)))}</p>`,
      ...(entry.summary === '' ? [] : [`<p>${escape(entry.summary)}</p>`]),
      `<p><a data-continue href="${escapeAttribute(entry.siteUrl)}">${text.continueReading}</a></p>`,
    ],
    text.language,
  );
}

export function renderShareNotFound(product: string): string {
  return document(
    [`<title>${escape(`${reachText.notFoundTitle} - ${product}`)}</title>`, '<meta name="robots" content="noindex">'],
    [
      `<h1>${reachText.notFoundTitle}</h1>`,
      `<p>${reachText.notFoundText}</p>`,
      `<p><a href="/">${reachText.home}</a></p>`,
    ],
  );
}
