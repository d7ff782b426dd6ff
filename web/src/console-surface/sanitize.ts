/**
 * The announcement sanitiser, for the operator console's editor (docs/architecture.md#boundaries).
 * A module of its own: the preview's surface (preview.ts) loads the site's language and config,
 * which the console's own pages do not carry.
 */
export { sanitizeBulletinHtml } from '../lib/sanitize';
