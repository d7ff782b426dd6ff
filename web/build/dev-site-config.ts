import { readFileSync } from 'node:fs';
import { siteConfigMetaName } from '@chat-site/contract';
import type { Plugin } from 'vite';

/** In development the page comes from Vite, not the server: carry the committed site config
 * the way the server does, so `npm run dev -w web` behaves like the real thing. */
export function devSiteConfig(): Plugin {
  return {
    name: 'dev-site-config',
    apply: 'serve',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: {
          name: siteConfigMetaName,
          content: readFileSync(new URL('../../site.config.json', import.meta.url), 'utf8'),
        },
        injectTo: 'head',
      },
    ],
  };
}
