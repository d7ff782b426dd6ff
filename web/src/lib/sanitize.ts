import DOMPurify from 'dompurify';

/**
 * Cleans announcement HTML with DOMPurify's allowlist before it is inserted, and passes every
 * image source through `resolveSrc` (API address and CDN rewriting). Links open in a new tab.
 */
export function sanitizeBulletinHtml(html: string, resolveSrc: (src: string) => string): string {
  const purify = DOMPurify(window);
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node instanceof HTMLImageElement) {
      const src = node.getAttribute('src');
      if (src !== null) node.setAttribute('src', resolveSrc(src));
      node.setAttribute('loading', 'lazy');
      node.setAttribute('decoding', 'async');
    }
    if (node instanceof HTMLAnchorElement && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  return purify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form'],
    FORBID_ATTR: ['style'],
  });
}
