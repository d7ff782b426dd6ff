/**
 * The markup an announcement may hold: the server cleans it with this list before it is stored,
 * and the site cleans it again with the same list before inserting it (rows written before, or by
 * another server, reach the page only through that second pass). See docs/behaviour.md#announcement-markup.
 */

export const bulletinTags: readonly string[] = [
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code'],
  ...['strong', 'b', 'em', 'i', 'u', 's', 'del', 'ins', 'sub', 'sup', 'mark', 'small', 'span', 'div'],
  ...['ul', 'ol', 'li', 'dl', 'dt', 'dd'],
  ...['table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption'],
  ...['a', 'img', 'figure', 'figcaption'],
];

/** The attributes each tag keeps; anything not named here is dropped: event handlers, style,
 * class, id and name included (without id and name no announcement can shadow a global the page
 * reads). */
export const bulletinAttributes: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'title', 'rel', 'target'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  th: ['colspan', 'rowspan', 'scope'],
  td: ['colspan', 'rowspan'],
};
