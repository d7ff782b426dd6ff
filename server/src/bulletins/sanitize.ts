/**
 * The allowlist announcement HTML is cleaned with before it is stored. The site cleans it again
 * before inserting it; this copy means the database, the API and every other client only ever
 * see markup an operator could legitimately have meant.
 */
import { bulletinAttributes, bulletinTags } from '@chat-site/contract';
import type { TokenizerCallbacks } from 'htmlparser2';
import type sanitizeHtml from 'sanitize-html';
import { loadHtmlParser } from '../lib/html-text.js';
import { lazy } from '../lib/lazy.js';

/** Loaded at the first announcement cleaned, not at start (lib/lazy.ts). */
export const loadSanitizeHtml = lazy<typeof sanitizeHtml>('sanitize-html');

const allowedTags = [...bulletinTags];
const allowedAttributes = Object.fromEntries(
  Object.entries(bulletinAttributes).map(([tag, names]) => [tag, [...names]]),
);

/** Disallowed tags whose text is not prose a reader should see; these lose their content too. */
const nonTextTags = [
  ...['script', 'style', 'template', 'title', 'textarea', 'xmp', 'plaintext', 'option', 'select'],
  ...['noscript', 'noembed', 'noframes', 'iframe', 'object', 'applet', 'svg', 'math'],
];

const options = (): sanitizeHtml.IOptions => ({
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
    a: loadSanitizeHtml().simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }),
  },
});

let cleanOptions: sanitizeHtml.IOptions | undefined;

/** Announcement HTML reduced to the allowlist above; text is kept, and escaped. NUL characters
 * go first: browsers drop or replace them anyway, and PostgreSQL text cannot hold them. Markup
 * nested deeper than anyone writes by hand (see tooDeeplyNested) keeps its text only: HTML
 * parsers take time that grows with the square of the depth. */
export function sanitizeBulletinHtml(html: string): string {
  const clean = html.replaceAll('\u0000', '');
  const sanitizeHtml = loadSanitizeHtml();
  if (markupDepth(clean) > maxMarkupDepth) return sanitizeHtml(textOf(clean), { allowedTags: [] });
  return sanitizeHtml(clean, (cleanOptions ??= options()));
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

/**
 * How deep the elements of `html` nest in the tree sanitize-html builds, in one pass. Its parser
 * (htmlparser2) keeps open elements on a stack it searches and shifts, so its time grows with the
 * square of the depth; this replays its rules with a stack that costs nothing per level: the
 * same tokenizer, the same void elements, the same tags that close others when they open, and a
 * closing tag that closes everything up to the nearest element of its name. Self-closing `/>`
 * counts only inside SVG and MathML, as there.
 */
export function markupDepth(html: string): number {
  const tree = new DepthCounter(html);
  const tokenizer = new (loadHtmlParser().Tokenizer)({ decodeEntities: false }, tree);
  tokenizer.write(html);
  tokenizer.end();
  return tree.deepest;
}

const voidElements = new Set([
  ...['area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input'],
  ...['isindex', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr'],
]);
const paragraph = ['p'];
const headings = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
const formTags = ['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea'];
/** Opening the key closes the open element on top while it is one of these. */
const openImpliesClose = new Map<string, Set<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['a', new Set(['a'])],
  ['li', new Set(['li'])],
  ...headings.map((tag): [string, Set<string>] => [tag, new Set([...headings, ...paragraph])]),
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ...['dd', 'dt'].map((tag): [string, Set<string>] => [tag, new Set(['dd', 'dt'])]),
  ...['rt', 'rp'].map((tag): [string, Set<string>] => [tag, new Set(['rt', 'rp'])]),
  ...['tbody', 'tfoot'].map((tag): [string, Set<string>] => [tag, new Set(['thead', 'tbody'])]),
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((tag): [string, Set<string>] => [
    tag,
    new Set(formTags),
  ]),
  ...[
    ...['p', 'address', 'article', 'aside', 'blockquote', 'details', 'div'],
    ...['dl', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'hr', 'main', 'nav', 'ol', 'pre'],
    ...['section', 'table', 'ul'],
  ].map((tag): [string, Set<string>] => [tag, new Set(paragraph)]),
]);
const foreignElements = new Set(['math', 'svg']);
const htmlIntegrationElements = new Set([
  ...['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title'],
]);

/** The parser's stack of open elements, with a count per name so that a closing tag with no open
 * element of its name costs nothing, and every other one pops what it closes. */
class DepthCounter implements TokenizerCallbacks {
  deepest = 0;
  readonly #open: string[] = [];
  readonly #openByName = new Map<string, number>();
  readonly #foreign: boolean[] = [false];
  #tag = '';

  constructor(private readonly html: string) {}

  onopentagname(start: number, end: number): void {
    const name = this.html.slice(start, end).toLowerCase();
    this.#tag = name;
    const closes = openImpliesClose.get(name);
    while (closes !== undefined && closes.has(this.#top())) this.#pop();
    if (voidElements.has(name)) return;
    this.#push(name);
    if (foreignElements.has(name)) this.#foreign.push(true);
    else if (htmlIntegrationElements.has(name)) this.#foreign.push(false);
  }

  onselfclosingtag(): void {
    if (this.#foreign.at(-1) === true && this.#top() === this.#tag) this.#pop();
  }

  onclosetag(start: number, end: number): void {
    const name = this.html.slice(start, end).toLowerCase();
    if (voidElements.has(name)) return;
    if ((this.#openByName.get(name) ?? 0) > 0) {
      while (this.#pop() !== name);
    } else if (name === 'p') {
      // A stray </p> is an empty paragraph where it stands.
      this.deepest = Math.max(this.deepest, this.#open.length + 1);
    }
  }

  #top(): string {
    return this.#open.at(-1) ?? '';
  }

  #push(name: string): void {
    this.#open.push(name);
    this.#openByName.set(name, (this.#openByName.get(name) ?? 0) + 1);
    this.deepest = Math.max(this.deepest, this.#open.length);
  }

  /** Closing an SVG, MathML or integration element, however it is closed (by its own end tag or
   * by an outer one), leaves its context, as the parser does. */
  #pop(): string | undefined {
    const name = this.#open.pop();
    if (name === undefined) return name;
    this.#openByName.set(name, (this.#openByName.get(name) ?? 1) - 1);
    if (foreignElements.has(name) || htmlIntegrationElements.has(name)) this.#foreign.pop();
    return name;
  }

  onopentagend(): void {}
  onattribdata(): void {}
  onattribentity(): void {}
  onattribend(): void {}
  onattribname(): void {}
  oncdata(): void {}
  oncomment(): void {}
  ondeclaration(): void {}
  onend(): void {}
  onprocessinginstruction(): void {}
  ontext(): void {}
  ontextentity(): void {}
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
