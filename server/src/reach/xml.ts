/** Escaping for the XML this server writes (feeds, sitemap) and the HTML of its share pages. */

/** Characters XML 1.0 does not allow anywhere, even escaped: C0 controls other than tab, line
 * feed and carriage return, lone surrogates, and U+FFFE/U+FFFF. */
const forbidden =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function stripForbiddenXmlChars(text: string): string {
  return text.replace(forbidden, '');
}

const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  // Parsers turn a raw carriage return into a line feed, and in attribute values every line
  // break and tab into a space; written as references they come back as they were.
  '\r': '&#13;',
  '\n': '&#10;',
  '\t': '&#9;',
};
const replaceWith = (pattern: RegExp) => (text: string) =>
  stripForbiddenXmlChars(text).replace(pattern, (char) => entities[char] ?? char);

/** Text safe in element content, of XML and of HTML alike. */
export const escapeXml = replaceWith(/[&<>"'\r]/g);

/** Text safe in a single- or double-quoted attribute value, of XML and of HTML alike. */
export const escapeAttribute = replaceWith(/[&<>"'\r\n\t]/g);

/** `<name attr="…">text</name>`, escaped; attributes with undefined values are left out. */
export function element(name: string, text: string, attributes: Record<string, string | undefined> = {}): string {
  return `<${name}${attributeList(attributes)}>${escapeXml(text)}</${name}>`;
}

/** `<name attr="…"/>`; attributes with undefined values are left out. */
export function emptyElement(name: string, attributes: Record<string, string | undefined>): string {
  return `<${name}${attributeList(attributes)}/>`;
}

function attributeList(attributes: Record<string, string | undefined>): string {
  return Object.entries(attributes)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeAttribute(value)}"`)
    .join('');
}

/** JSON for a `<script type="application/ld+json">` block: `<` is written as \u003c so that
 * no value can close the element or open a comment. */
export function scriptJson(value: unknown): string {
  return stripForbiddenXmlChars(JSON.stringify(value)).replace(/</g, '\\u003c');
}
