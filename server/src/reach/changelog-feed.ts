/** The Atom 1.0 (RFC 4287) feed of the changelog (docs/site.md#changelog): one entry per
 * release, its notes as text. Escaped and cleaned like the announcements' feeds (xml.ts). */
import type { ChangelogRelease } from '../updates/changelog.js';
import { rfc3339 } from './times.js';
import { element, emptyElement } from './xml.js';

export interface ChangelogFeedData {
  title: string;
  language: string;
  /** The changelog screen of the site. */
  siteUrl: string;
  /** This feed's own address. */
  selfUrl: string;
  author: string;
  timeZone: string;
  /** Newest first. */
  releases: ChangelogRelease[];
  /** An entry's title: its platform and version. */
  entryTitle: (os: string, version: string) => string;
}

/** A changelog with no release has never changed; Atom still needs a date. */
const epoch = '1970-01-01T00:00:00.000Z';

export function buildChangelogAtom(feed: ChangelogFeedData): string {
  const entries = feed.releases.map(({ id, releasedAt, entry }) =>
    [
      '<entry>',
      // Unique and stable per release; the changelog screen itself has no address per release.
      element('id', `${feed.selfUrl}#release-${id}`),
      element('title', feed.entryTitle(entry.os, entry.app_version), { type: 'text' }),
      emptyElement('link', { rel: 'alternate', type: 'text/html', href: feed.siteUrl }),
      element('updated', rfc3339(releasedAt, feed.timeZone)),
      element('content', entry.update_desc, { type: 'text' }),
      '</entry>',
    ].join('\n'),
  );
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${feed.language}">`,
    element('id', feed.selfUrl),
    element('title', feed.title, { type: 'text' }),
    element('updated', rfc3339(feed.releases[0]?.releasedAt ?? epoch, feed.timeZone)),
    emptyElement('link', { rel: 'self', type: 'application/atom+xml', href: feed.selfUrl }),
    emptyElement('link', { rel: 'alternate', type: 'text/html', href: feed.siteUrl }),
    `<author>${element('name', feed.author)}</author>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}
