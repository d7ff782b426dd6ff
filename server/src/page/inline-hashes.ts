import { createHash } from 'node:crypto';

/** The CSP source expressions ('sha256-…') that allow the page's own inline scripts and styles,
 * and nothing else inline (strict CSP: no 'unsafe-inline'). */
export interface InlineHashes {
  scripts: string[];
  styles: string[];
}

const hashOf = (content: string) => `'sha256-${createHash('sha256').update(content, 'utf8').digest('base64')}'`;

/** A script element's content runs when it has no src and its type is JavaScript; other types
 * (JSON-LD, import maps aside) are data blocks that CSP does not govern. */
function runsInline(attributes: string): boolean {
  if (/\ssrc\s*=/i.test(attributes)) return false;
  const type = /\stype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
  return type === undefined || type === 'module' || type === 'text/javascript';
}

/** Computed once from the built page, whose inline elements do not change per request. */
export function inlineHashes(html: string): InlineHashes {
  const scripts = [...html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script\s*>/gi)]
    .filter(([, attributes = '', content = '']) => content !== '' && runsInline(attributes))
    .map(([, , content = '']) => hashOf(content));
  const styles = [...html.matchAll(/<style(\s[^>]*)?>([\s\S]*?)<\/style\s*>/gi)].map(([, , content = '']) =>
    hashOf(content),
  );
  return { scripts: [...new Set(scripts)], styles: [...new Set(styles)] };
}
