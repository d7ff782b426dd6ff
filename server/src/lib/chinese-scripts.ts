/**
 * The traditional Chinese made from what the operator writes in simplified
 * (docs/behaviour.md#announcements-in-every-language): OpenCC's simplified to Taiwan standard
 * with phrases, so that 软件 becomes 軟體 rather than 軟件. Only the text a reader sees changes:
 * tags, attributes (addresses among them), entities and the contents of code and pre stay as
 * written. The converter's dictionaries cost a worker several MB, so they load at the first
 * conversion (lib/lazy.ts), never at start.
 */
import type OpenCC from 'opencc-js';
import { loadHtmlParser } from './html-text.js';
import { lazy } from './lazy.js';

const loadOpenCC = lazy<typeof OpenCC>('opencc-js');

type Convert = (text: string) => string;
let toTaiwan: Convert | undefined;
let toMainland: Convert | undefined;

/** Plain text (a title) in traditional Chinese, Taiwan standard. */
export function traditionalText(text: string): string {
  return (toTaiwan ??= loadOpenCC().Converter({ from: 'cn', to: 'twp' }))(text);
}

/** Plain text (a search) in simplified Chinese: the way back, for matching either script. */
export function simplifiedText(text: string): string {
  return (toMainland ??= loadOpenCC().Converter({ from: 'twp', to: 'cn' }))(text);
}

/** Elements whose text is code or markup, not prose: converting it would change its meaning. */
const verbatim = new Set(['code', 'pre', 'kbd', 'samp', 'script', 'style', 'textarea']);

/** Announcement HTML with its text converted and everything else byte for byte as it was. */
export function traditionalHtml(html: string): string {
  let insideVerbatim = 0;
  let out = '';
  let copied = 0;
  const parser = new (loadHtmlParser().Parser)(
    {
      onopentagname(name) {
        if (verbatim.has(name)) insideVerbatim += 1;
      },
      onclosetag(name) {
        // The parser calls this for the end tags it implies too, so the count follows its tree.
        if (verbatim.has(name)) insideVerbatim = Math.max(0, insideVerbatim - 1);
      },
      ontext() {
        if (insideVerbatim > 0) return;
        const start = parser.startIndex;
        const end = parser.endIndex + 1;
        out += html.slice(copied, start) + traditionalText(html.slice(start, end));
        copied = end;
      },
    },
    { decodeEntities: false },
  );
  parser.write(html);
  parser.end();
  return out + html.slice(copied);
}
