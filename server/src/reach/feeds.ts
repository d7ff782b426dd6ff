/** Atom 1.0 (RFC 4287) and RSS 2.0 documents of the latest announcements: pure functions of
 * their data, every text and attribute escaped, every character XML 1.0 forbids removed. */
import type { PublishedBulletin } from './content.js';
import { element, emptyElement } from './xml.js';
import { rfc3339, rfc822 } from './times.js';

export interface FeedData {
  title: string;
  description: string;
  language: string;
  /** The announcements screen of the site. */
  siteUrl: string;
  /** This feed's own address. */
  selfUrl: string;
  /** Publisher name, the product's. */
  author: string;
  /** ISO instant: the latest change of any announcement, or undefined when there are none. */
  updatedAt: string | undefined;
  timeZone: string;
  entries: PublishedBulletin[];
}

const declaration = '<?xml version="1.0" encoding="utf-8"?>';
/** A feed with no announcements has never changed; Atom still needs a date. */
const epoch = '1970-01-01T00:00:00.000Z';

function atomEntry(entry: PublishedBulletin, timeZone: string): string {
  return [
    '<entry>',
    element('id', entry.url),
    element('title', entry.title, { type: 'text' }),
    emptyElement('link', { rel: 'alternate', type: 'text/html', href: entry.url }),
    element('published', rfc3339(entry.createdAt, timeZone)),
    element('updated', rfc3339(entry.updatedAt, timeZone)),
    element('summary', entry.summary, { type: 'text' }),
    element('content', entry.html, { type: 'html' }),
    '</entry>',
  ].join('\n');
}

export function buildAtomFeed(feed: FeedData): string {
  return [
    declaration,
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${feed.language}">`,
    element('id', feed.selfUrl),
    element('title', feed.title, { type: 'text' }),
    element('subtitle', feed.description, { type: 'text' }),
    element('updated', rfc3339(feed.updatedAt ?? epoch, feed.timeZone)),
    emptyElement('link', { rel: 'self', type: 'application/atom+xml', href: feed.selfUrl }),
    emptyElement('link', { rel: 'alternate', type: 'text/html', href: feed.siteUrl }),
    `<author>${element('name', feed.author)}</author>`,
    ...feed.entries.map((entry) => atomEntry(entry, feed.timeZone)),
    '</feed>',
    '',
  ].join('\n');
}

function rssItem(entry: PublishedBulletin, timeZone: string): string {
  return [
    '<item>',
    element('title', entry.title),
    element('link', entry.url),
    element('guid', entry.url, { isPermaLink: 'true' }),
    element('pubDate', rfc822(entry.createdAt, timeZone)),
    element('description', entry.html),
    '</item>',
  ].join('\n');
}

export function buildRssFeed(feed: FeedData): string {
  return [
    declaration,
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '<channel>',
    element('title', feed.title),
    element('link', feed.siteUrl),
    element('description', feed.description),
    element('language', feed.language),
    emptyElement('atom:link', { rel: 'self', type: 'application/rss+xml', href: feed.selfUrl }),
    ...(feed.updatedAt === undefined ? [] : [element('lastBuildDate', rfc822(feed.updatedAt, feed.timeZone))]),
    ...feed.entries.map((entry) => rssItem(entry, feed.timeZone)),
    '</channel>',
    '</rss>',
    '',
  ].join('\n');
}
