/** The paths this module serves, in one place: pages link to them and the routes answer them. */
export const reachPaths = {
  atom: '/feed.atom',
  rss: '/feed.rss',
  changelogAtom: '/changelog.atom',
  sitemap: '/sitemap.xml',
  robots: '/robots.txt',
  share: '/a/:id',
  continueScript: '/a/continue.js',
} as const;

/** The crawlable share address of an announcement. */
export const sharePath = (id: number) => `/a/${id}`;

/** The announcement inside the site (its hash route). */
export const sitePath = (id: number) => `/#/announcement/${id}`;

/** The announcements screen of the site. */
export const announcementsPath = '/#/announcements';

/** The changelog screen of the site. */
export const changelogPath = '/#/changelog';
