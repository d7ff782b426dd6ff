/**
 * The allowlist announcement HTML is cleaned with before it is stored. The site cleans it again
 * before inserting it; this copy means the database, the API and every other client only ever
 * see markup an operator could legitimately have meant.
 */
import sanitizeHtml from 'sanitize-html';

const allowedTags = [
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code'],
  ...['strong', 'b', 'em', 'i', 'u', 's', 'del', 'ins', 'sub', 'sup', 'mark', 'small', 'span', 'div'],
  ...['ul', 'ol', 'li', 'dl', 'dt', 'dd'],
  ...['table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption'],
  ...['a', 'img', 'figure', 'figcaption'],
];

/** Anything not named here is dropped: event handlers, style, class, id and name included. */
const allowedAttributes: sanitizeHtml.IOptions['allowedAttributes'] = {
  a: ['href', 'title', 'rel', 'target'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  th: ['colspan', 'rowspan', 'scope'],
  td: ['colspan', 'rowspan'],
};

/** Disallowed tags whose text is not prose a reader should see; these lose their content too. */
const nonTextTags = [
  ...['script', 'style', 'template', 'title', 'textarea', 'xmp', 'plaintext', 'option', 'select'],
  ...['noscript', 'noembed', 'noframes', 'iframe', 'object', 'applet', 'svg', 'math'],
];

const options: sanitizeHtml.IOptions = {
  allowedTags,
  allowedAttributes,
  nonTextTags,
  disallowedTagsMode: 'discard',
  // Relative paths (file/preview/<key>, #/download) have no scheme and stay; `//host` does not.
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  parseStyleAttributes: false,
  transformTags: {
    // Set here, after the operator's own values, so they cannot be overridden.
    a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }),
  },
};

/** Announcement HTML reduced to the allowlist above; text is kept, and escaped. NUL characters
 * go first: browsers drop or replace them anyway, and PostgreSQL text cannot hold them. */
export function sanitizeBulletinHtml(html: string): string {
  return sanitizeHtml(html.replaceAll('\u0000', ''), options);
}
