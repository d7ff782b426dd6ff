import { bulletinAttributes, bulletinTags } from '@chat-site/contract';
import DOMPurify from 'dompurify';

/** The allowlist the server stores announcements with (docs/behaviour.md#announcement-markup).
 * DOMPurify takes one list of attributes for every tag; rel and target are set below, never
 * taken from the markup. */
const allowedTags = [...bulletinTags];
const allowedAttributes = [...new Set(Object.values(bulletinAttributes).flat())].filter(
  (name) => name !== 'rel' && name !== 'target',
);
/** http, https and mailto, or no scheme at all (relative). */
const allowedUri = /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

function httpOrigin(url: string): string | undefined {
  try {
    const parsed = new URL(url, document.baseURI);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Cleans announcement HTML before it is inserted, and passes every image source through
 * `resolveSrc` (API address and CDN rewriting). Links open in a new tab. An image is kept only
 * when it loads from this site, the API address or the CDN, the places `resolveSrc` sends a
 * hosted file, as the page's Content-Security-Policy allows: anything else would be a request
 * to a stranger (a tracking pixel) or a data: URL.
 */
export function sanitizeBulletinHtml(html: string, resolveSrc: (src: string) => string): string {
  const imageOrigins = new Set(
    [location.origin, httpOrigin(resolveSrc('x')), httpOrigin(resolveSrc('file/preview/x'))].filter(
      (origin) => origin !== undefined,
    ),
  );
  const purify = DOMPurify(window);
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node instanceof HTMLImageElement) {
      const src = node.getAttribute('src');
      if (src !== null) {
        const resolved = resolveSrc(src);
        const origin = httpOrigin(resolved);
        if (origin !== undefined && imageOrigins.has(origin)) node.setAttribute('src', resolved);
        else node.removeAttribute('src');
      }
      node.setAttribute('loading', 'lazy');
      node.setAttribute('decoding', 'async');
    }
    if (node instanceof HTMLAnchorElement && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  return purify.sanitize(html, {
    ALLOWED_TAGS: allowedTags,
    ALLOWED_ATTR: allowedAttributes,
    ALLOWED_URI_REGEXP: allowedUri,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
  });
}
