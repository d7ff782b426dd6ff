import { entryScriptsMetaName } from '@chat-site/contract';
import type { Plugin } from 'vite';
import { buildClassicScript } from './classic-script';
import type { LegacyAssets } from './legacy-build';

/** The boot scripts, as index.html names them, each built from its TypeScript source. */
const bootScripts = ['boot.ts', 'boot-route.ts'];

/**
 * The boot scripts (theme, language and route before paint; the early API calls; starting the
 * site's script) go inside index.html rather than beside it: each would otherwise be a request
 * that blocks rendering. Minified, as every byte of them is in every page before its first paint.
 * The server allows them by their hashes in its CSP (server/src/page/inline-hashes.ts). In
 * development too, where a classic script could not import the modules they share with the site.
 * The sequence: docs/boot.md#boot-sequence. They name the legacy build's files
 * (`legacy`), which they load in an old engine (src/lib/old-engine.ts).
 */
export function inlineBootScripts(legacy: () => Promise<LegacyAssets>): Plugin {
  let root = '';
  return {
    name: 'inline-boot-scripts',
    configResolved: (config) => {
      root = config.root;
    },
    transformIndexHtml: {
      order: 'pre',
      handler: async (html) => {
        let page = html;
        const { script, stylesheet } = await legacy();
        const define = { __LEGACY_SCRIPT__: JSON.stringify(script), __LEGACY_STYLESHEET__: JSON.stringify(stylesheet) };
        for (const name of bootScripts) {
          const tag = `<script src="/src/${name}"></script>`;
          if (!page.includes(tag)) throw new Error(`index.html has no ${tag} to inline`);
          const { code } = await buildClassicScript(root, `src/${name}`, { define });
          if (/<\/script/i.test(code)) throw new Error(`${name} cannot be inlined: it contains </script`);
          page = page.replace(tag, () => `<script>${code.trim()}</script>`);
        }
        return page;
      },
    },
  };
}

/**
 * The site's script is neither fetched nor run before the prerendered page has been painted:
 * src/boot-route.ts starts it then, from this list (the entry first, then the modules it
 * imports). Lighthouse counts any script that has arrived by then as one the paint waited for,
 * and on a slow network it would share the first paint's bandwidth.
 */
export function deferredEntry(): Plugin {
  return {
    name: 'deferred-entry',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html, { chunk }) => {
        if (chunk === undefined) throw new Error('index.html has no entry script to defer');
        const modules =
          /<(?:script type="module"|link rel="modulepreload") crossorigin (?:src|href)="([^"]+)">(?:<\/script>)?\s*/g;
        const named = [...html.matchAll(modules)].map((match) => match[1] as string);
        // Known by its name: the chunk's hash is not yet the file's at this stage.
        const entries = named.filter((url) => url.split('/').at(-1)?.startsWith(`${chunk.name}-`));
        const [entry] = entries;
        if (entry === undefined || entries.length > 1) throw new Error(`index.html names no one ${chunk.name} entry`);
        const scripts = [entry, ...named.filter((url) => url !== entry)];
        const tag = `<meta name="${entryScriptsMetaName}" content="${scripts.join(' ')}">`;
        return html.replace(modules, '').replace('</head>', () => `${tag}\n</head>`);
      },
    },
  };
}
