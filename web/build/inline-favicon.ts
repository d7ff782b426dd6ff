import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

/**
 * The favicon goes inside index.html as a data URL rather than as /favicon.svg: the browser asks
 * for the icon while the page loads, and that request took the page's connection on a phone
 * ahead of the screen's own pictures (docs/performance.md#the-largest-paint-of-each-screen). The
 * icon is the logo the page already carries as an SVG symbol; compressed with the page it costs
 * about 0.1 KB. web/public/favicon.svg stays for the API reference and the share pictures.
 */
export function inlineFavicon(): Plugin {
  const link = '<link rel="icon" type="image/svg+xml" href="/favicon.svg" />';
  return {
    name: 'inline-favicon',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) => {
        if (!html.includes(link)) throw new Error(`index.html no longer has ${link}`);
        const svg = readFileSync(new URL('../public/favicon.svg', import.meta.url), 'utf8');
        return html.replace(link, () => `<link rel="icon" type="image/svg+xml" href="${svgDataUrl(svg)}" />`);
      },
    },
  };
}

/** An SVG as a data URL, escaped where a URL or a double-quoted attribute needs it, and its
 * angle brackets too, so that no tool reading the page's markup mistakes it for a tag. */
export function svgDataUrl(svg: string): string {
  const text = svg
    .trim()
    .replace(/\s+/g, ' ')
    .replaceAll('"', "'")
    .replace(/[%#<>&\r\n]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  return `data:image/svg+xml,${text}`;
}
