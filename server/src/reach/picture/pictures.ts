/**
 * Which picture a page offers link previewers, and the tags that say so: an announcement's own
 * picture (its title, date and the product, drawn by the server), the first raster image of its
 * body in its stead, or the site's picture (docs/reach.md#share-pictures).
 */
import { toWireTime } from '../../lib/time.js';
import { defaultLanguage, type Language } from '@chat-site/contract';
import { inLanguage, reachPaths, sharePicturePath } from '../addresses.js';
import { rasterType, type PublishedBulletin } from '../content.js';
import { reachText, reachTexts } from '../text.js';
import { escapeAttribute } from '../xml.js';
import { announcementCard, pictureHeight, pictureWidth, siteCard, type Node } from './card.js';
import { cardVersion } from './store.js';

export interface PictureMeta {
  /** Absolute when the origin is known (PUBLIC_URL or the request's). */
  url: string;
  alt: string;
  type: string;
  /** Known for the pictures the server draws; a body image's size is not. */
  size?: { width: number; height: number };
}

export interface BulletinFacts {
  title: string;
  /** ISO instant. */
  createdAt: string;
}

export function bulletinCard(bulletin: BulletinFacts, product: string, timeZone: string): Node {
  return announcementCard(bulletin.title, toWireTime(bulletin.createdAt, timeZone).slice(0, 10), product);
}

export const siteCardOf = (product: string): Node => siteCard(product, reachText.siteLine);

const drawnSize = { width: pictureWidth, height: pictureHeight };

/** The body's first raster image when it has one, else the announcement's drawn picture. */
export function bulletinPicture(
  entry: PublishedBulletin,
  product: string,
  origin: string,
  timeZone: string,
  language: Language = defaultLanguage,
): PictureMeta {
  const alt = reachTexts[language].pictureAlt(product, entry.title);
  const bodyType = entry.image === undefined ? undefined : rasterType(entry.image);
  if (entry.image !== undefined && bodyType !== undefined) return { url: entry.image, alt, type: bodyType };
  const version = cardVersion(bulletinCard(entry, product, timeZone));
  const url = `${origin}${inLanguage(sharePicturePath(entry.id, version), language)}`;
  return { url, alt, type: 'image/png', size: drawnSize };
}

export function sitePicture(product: string, origin: string): PictureMeta {
  const version = cardVersion(siteCardOf(product));
  return {
    url: `${origin}${reachPaths.sitePicture}?v=${version}`,
    alt: reachText.sitePictureAlt(product),
    type: 'image/png',
    size: drawnSize,
  };
}

/** Open Graph and Twitter tags of the picture; the page writes its twitter:card itself. */
export function pictureTags(picture: PictureMeta): string[] {
  const property = (name: string, content: string) => `<meta property="${name}" content="${escapeAttribute(content)}">`;
  const named = (name: string, content: string) => `<meta name="${name}" content="${escapeAttribute(content)}">`;
  return [
    property('og:image', picture.url),
    property('og:image:type', picture.type),
    ...(picture.size === undefined
      ? []
      : [
          property('og:image:width', String(picture.size.width)),
          property('og:image:height', String(picture.size.height)),
        ]),
    property('og:image:alt', picture.alt),
    named('twitter:image', picture.url),
    named('twitter:image:alt', picture.alt),
  ];
}
