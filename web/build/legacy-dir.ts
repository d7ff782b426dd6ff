/** Where the legacy build's files go (legacy-build.ts), apart from the site's own: the service
 * worker does not precache them, and the page does not inline their stylesheet. */
export const legacyDir = 'assets/legacy';
