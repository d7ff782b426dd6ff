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
 * go first: browsers drop or replace them anyway, and PostgreSQL text cannot hold them. Markup
 * nested deeper than anyone writes by hand (see tooDeeplyNested) keeps its text only: HTML
 * parsers take time that grows with the square of the depth. */
export function sanitizeBulletinHtml(html: string): string {
  const clean = html.replaceAll('\u0000', '');
  if (markupDepth(clean) > maxMarkupDepth) return sanitizeHtml(textOf(clean), { allowedTags: [] });
  return sanitizeHtml(clean, options);
}

/** Deeper than any announcement written by hand or pasted from an editor; far below what slows
 * a parser down (tens of thousands of levels take seconds). */
export const maxMarkupDepth = 256;

/** Why `html` cannot be published as it is, or undefined when it can. */
export function tooDeeplyNested(html: string): string | undefined {
  const depth = markupDepth(html);
  return depth > maxMarkupDepth
    ? `the announcement HTML nests tags ${depth} levels deep; at most ${maxMarkupDepth} are allowed (unclosed tags count)`
    : undefined;
}

/** Elements that hold nothing, or that a parser closes by itself when the next one opens. */
const flatElements = new Set([
  ...['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'],
  ...['p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'option', 'optgroup', 'colgroup'],
  ...['caption', 'rb', 'rt', 'rp'],
]);

/**
 * How deep the tags of `html` nest, read in one pass (an HTML parser needs time growing with the
 * square of the depth, so this must not use one). A tag runs from `<` to the next `>`, like a
 * tokenizer reads it; comments and declarations are skipped; a closing tag closes one level.
 */
export function markupDepth(html: string): number {
  let depth = 0;
  let deepest = 0;
  for (let at = html.indexOf('<'); at !== -1; at = html.indexOf('<', at)) {
    if (html.startsWith('<!--', at)) {
      const end = html.indexOf('-->', at + 4);
      if (end === -1) break;
      at = end + 3;
      continue;
    }
    const end = html.indexOf('>', at + 1);
    if (end === -1) break;
    const closing = html[at + 1] === '/';
    const name = /^[a-zA-Z][^\s/>]*/.exec(html.slice(at + (closing ? 2 : 1), Math.min(end, at + 40)))?.[0];
    if (name !== undefined && !flatElements.has(name.toLowerCase())) {
      if (closing) depth = Math.max(0, depth - 1);
      else if (html[end - 1] !== '/') deepest = Math.max(deepest, ++depth);
    }
    at = end + 1;
  }
  return deepest;
}

/** The text between the tags, in one pass. */
function textOf(html: string): string {
  let text = '';
  let from = 0;
  for (let at = html.indexOf('<'); at !== -1; at = html.indexOf('<', from)) {
    text += html.slice(from, at);
    const end = html.indexOf('>', at + 1);
    if (end === -1) return text;
    from = end + 1;
  }
  return text + html.slice(from);
}
