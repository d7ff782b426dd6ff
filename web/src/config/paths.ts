/** Every route of the hash router, in one place. */
export const paths = {
  home: '/',
  download: '/download',
  downloadHelp: '/downloadHelp',
  announcement: (id: string) => `/announcement/${encodeURIComponent(id)}`,
  announcementPattern: '/announcement/:id',
  announcements: '/announcements',
  announcementsItem: (id: string) => `/announcements/${encodeURIComponent(id)}`,
  announcementsItemPattern: '/announcements/:id',
  changelog: '/changelog',
} as const;

/** An href for a route, for links outside the router's own <Link>. */
export const hashHref = (path: string) => `#${path}`;
