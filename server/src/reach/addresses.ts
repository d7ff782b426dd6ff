import { defaultLanguage, type Language } from '@chat-site/contract';

/** The paths this module serves, in one place: pages link to them and the routes answer them. */
export const reachPaths = {
  atom: '/feed.atom',
  rss: '/feed.rss',
  changelogAtom: '/changelog.atom',
  sitemap: '/sitemap.xml',
  robots: '/robots.txt',
  share: '/a/:id',
  continueScript: '/a/continue.js',
  sharePicture: '/a/:id/picture.png',
  sitePicture: '/site-picture.png',
} as const;

/** The crawlable share address of an announcement. */
export const sharePath = (id: number) => `/a/${id}`;

/** An announcement's drawn picture; `version` names what it shows, so a changed announcement
 * gets a new address and link previewers fetch it again. */
export const sharePicturePath = (id: number, version: string) => `/a/${id}/picture.png?v=${version}`;

/** The announcement inside the site (its hash route). */
export const sitePath = (id: number) => `/#/announcement/${id}`;

/** The announcements screen of the site. */
export const announcementsPath = '/#/announcements';

/** The changelog screen of the site. */
export const changelogPath = '/#/changelog';

/** `address` in `language` (docs/reach.md#languages-of-share-pages-and-feeds): `lang` in its query
 * for any but the default, before the hash of a site address, where the site reads it. */
export function inLanguage(address: string, language: Language): string {
  if (language === defaultLanguage) return address;
  const hash = address.indexOf('#');
  const [path, fragment] = hash < 0 ? [address, ''] : [address.slice(0, hash), address.slice(hash)];
  return `${path}${path.includes('?') ? '&' : '?'}lang=${language}${fragment}`;
}
