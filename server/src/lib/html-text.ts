/**
 * The text a reader sees in announcement HTML, without its tags, attributes or entities: what
 * the console's search matches (docs/console.md#searching-announcements). Block boundaries
 * become spaces so that two paragraphs never run into one word; inline tags join their text.
 */
import type * as HtmlParser from 'htmlparser2';
import { lazy } from './lazy.js';

/** Loaded at the first announcement written or cleaned (here and in bulletins/sanitize.ts), not at
 * start: a worker that only reads never needs it (lib/lazy.ts). */
export const loadHtmlParser = lazy<typeof HtmlParser>('htmlparser2');

const blocks = new Set([
  ...['p', 'br', 'hr', 'div', 'blockquote', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
  ...['ul', 'ol', 'li', 'dl', 'dt', 'dd', 'table', 'tr', 'th', 'td', 'caption', 'figure', 'figcaption'],
]);

export function htmlText(html: string): string {
  let text = '';
  const gap = (name: string) => {
    if (blocks.has(name)) text += ' ';
  };
  const parser = new (loadHtmlParser().Parser)(
    { ontext: (chunk) => (text += chunk), onopentagname: gap, onclosetag: gap },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return text.replace(/\s+/g, ' ').trim();
}
