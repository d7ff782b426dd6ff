/**
 * What the operator console (console/) takes from the site, and nothing else: the article that
 * draws an announcement in its preview, the API context it needs, the language switch and the
 * announcement sanitiser (docs/architecture.md#boundaries). ESLint lets the console import from
 * web/src through this module only; its styles come from web/src/styles.css (console/src/console.css).
 */
export { AnnouncementArticle } from './features/announcements/components/announcement-article';
export { FixedApiProvider } from './lib/api-bootstrap/api-provider';
export { setLanguage } from './lib/i18n';
export { sanitizeBulletinHtml } from './lib/sanitize';
