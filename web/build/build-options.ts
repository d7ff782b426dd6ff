import { defaultClientConditions } from 'vite';
import { fileURLToPath } from 'node:url';

// Shared by the site's own build (vite.config.ts) and the ones its plugins start (the prerender,
// the boot and early scripts).

/** The workspace packages' TypeScript sources rather than their compiled output. */
export const conditions = ['source', ...defaultClientConditions];

/** Names shared across modules (@chat-site/contract's page names, the storage keys …) are
 * written where they are used, not kept as variables exported from one chunk to another. */
export const optimization = { inlineConst: { mode: 'all', pass: 2 } } as const;

/** React's shim for React 17 and older, replaced by the site's own use of React 19's hook. */
export const siteAliases = {
  'use-sync-external-store/shim/index.js': fileURLToPath(
    new URL('../src/lib/use-sync-external-store.ts', import.meta.url),
  ),
};
