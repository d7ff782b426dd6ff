import type { Plugin } from 'vite';
import { legacyDir } from './legacy-dir';

/**
 * The site's one stylesheet goes inside index.html rather than beside it, where it would be a
 * request that blocks rendering; the build (vite.config.ts) keeps it whole (no CSS code split),
 * so no chunk names a file of its own. The server allows it by its hash in its CSP
 * (server/src/page/inline-hashes.ts), as it does the boot scripts (early-scripts.ts).
 */
export function inlineStylesheet(): Plugin {
  return {
    name: 'inline-stylesheet',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html, context) => {
        let page = html;
        for (const asset of Object.values(context.bundle ?? {})) {
          // The legacy stylesheet stays a file: only an old engine fetches it (legacy-build.ts).
          if (asset.type !== 'asset' || !asset.fileName.endsWith('.css') || asset.fileName.startsWith(legacyDir))
            continue;
          const link = new RegExp(`<link rel="stylesheet"[^>]*href="/${asset.fileName}"[^>]*>`);
          if (!link.test(page)) continue;
          const css = String(asset.source);
          if (/<\/style/i.test(css)) throw new Error(`${asset.fileName} cannot be inlined: it contains </style`);
          page = page.replace(link, () => `<style>${css}</style>`);
          delete context.bundle?.[asset.fileName];
        }
        return page;
      },
    },
  };
}
