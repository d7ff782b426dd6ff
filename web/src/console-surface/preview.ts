/**
 * What the console's preview frame (console/src/preview) takes from the site: the article that
 * draws an announcement, the API context it needs and the language switch
 * (docs/architecture.md#boundaries). ESLint lets the console import from web/src through
 * web/src/console-surface/ only; its styles come from web/src/styles.css (console/src/console.css).
 */
export { AnnouncementArticle } from '../features/announcements/components/announcement-article';
export { FixedApiProvider } from '../lib/api-bootstrap/api-provider';
export { setLanguage } from '../lib/i18n';
