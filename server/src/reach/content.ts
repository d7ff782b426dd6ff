/** A stored announcement as feeds and share pages publish it: cleaned HTML whose links and
 * images are absolute (CDN first, as the site loads them), a plain-text summary, a preview image. */
import { resolveImageSrc, type CdnSettings } from '@chat-site/contract';
import { loadSanitizeHtml, sanitizeBulletinHtml } from '../bulletins/sanitize.js';
import type { BulletinRow } from '../db/schema.js';
import { sharePath, sitePath } from './addresses.js';

export interface PublishContext {
  /** The origin visitors use (PUBLIC_URL, else the request's). */
  origin: string;
  cdn: CdnSettings;
}

export interface PublishedBulletin {
  id: number;
  title: string;
  /** The crawlable share address, /a/{id}. */
  url: string;
  /** The announcement inside the site. */
  siteUrl: string;
  html: string;
  summary: string;
  /** The first raster image (PNG, JPEG, WebP, GIF) a link previewer can show, if any. */
  image: string | undefined;
  /** ISO instants. */
  createdAt: string;
  updatedAt: string;
}

const summaryLength = 160;
const blockEnd = /<\/(p|div|h[1-6]|li|dt|dd|td|th|tr|blockquote|pre|figcaption|caption)>|<br\s*\/?>|<hr\s*\/?>/gi;
const textEntities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** Absolute form of a link in announcement HTML: site routes (#/download) on the site's origin,
 * everything relative to the API (file/preview/<key>) the way the site resolves image sources. */
function absoluteUrl(url: string, context: PublishContext): string {
  const trimmed = url.trim();
  if (trimmed.startsWith('#')) return `${context.origin}/${trimmed}`;
  return resolveImageSrc(trimmed, { apiAddr: context.origin, cdn: context.cdn });
}

const rasterTypes: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** The type of an image link previewers draw (WeChat, Telegram and X draw no SVG), from the
 * extension its address ends in; undefined for any other. */
export function rasterType(url: string): string | undefined {
  const extension = /\.([a-z]+)$/i.exec(url.split(/[?#]/, 1)[0] ?? '')?.[1]?.toLowerCase();
  return extension === undefined ? undefined : rasterTypes[extension];
}
const isRaster = (url: string) => rasterType(url) !== undefined;

function rewrite(html: string, context: PublishContext): { html: string; image: string | undefined } {
  let image: string | undefined;
  const rewritten = loadSanitizeHtml()(sanitizeBulletinHtml(html), {
    // The markup has just been through the announcement allowlist; this pass only rewrites URLs.
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    transformTags: {
      img: (tagName, attribs) => {
        const src = attribs.src === undefined ? undefined : absoluteUrl(attribs.src, context);
        if (src !== undefined && image === undefined && isRaster(src)) image = src;
        return { tagName, attribs: src === undefined ? attribs : { ...attribs, src } };
      },
      a: (tagName, attribs) => ({
        tagName,
        attribs: attribs.href === undefined ? attribs : { ...attribs, href: absoluteUrl(attribs.href, context) },
      }),
    },
  });
  return { html: rewritten, image };
}

/** The start of the body as plain text, whitespace collapsed, cut at a character boundary. */
export function plainSummary(html: string): string {
  const escaped = loadSanitizeHtml()(html.replace(blockEnd, '$& '), { allowedTags: [], allowedAttributes: {} });
  const text = escaped
    .replace(/&(amp|lt|gt|quot|#39);/g, (entity) => textEntities[entity] ?? entity)
    .replace(/\s+/g, ' ')
    .trim();
  const chars = [...text];
  return chars.length <= summaryLength ? text : `${chars.slice(0, summaryLength - 1).join('')}…`;
}

export function publishBulletin(row: BulletinRow, context: PublishContext): PublishedBulletin {
  const { html, image } = rewrite(row.content, context);
  return {
    id: row.id,
    title: row.title,
    url: `${context.origin}${sharePath(row.id)}`,
    siteUrl: `${context.origin}${sitePath(row.id)}`,
    html,
    summary: plainSummary(html),
    image,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
