import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { conditions, optimization, siteAliases } from './build/build-options';
import { devSiteConfig } from './build/dev-site-config';
import { deferredEntry, inlineBootScripts } from './build/early-scripts';
import { inlineFavicon } from './build/inline-favicon';
import { inlineStylesheet } from './build/inline-stylesheet';
import { legacyBuild } from './build/legacy-build';
import { precompress } from './build/precompress';
import { prerenderPages } from './build/prerender';
import { serviceWorker } from './build/service-worker';

/** The entry and every module it imports, in one chunk. Left alone, Rolldown moves what the entry
 * shares with the lazy screens (React, the catalog loader, storage) into a chunk of its own, which
 * compresses about 1 KB worse apart than within the entry:
 * docs/performance.md#the-first-load-budget. */
const entryGroup = { name: 'index', test: /\/src\/main\.tsx$/ };

/** The site again for the oldest engines it serves, loaded only by them:
 * docs/site.md#the-oldest-browsers-served. */
const legacy = legacyBuild();

// The page's boot sequence, which these plugins build: docs/boot.md#boot-sequence.
export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    inlineBootScripts(legacy.assets),
    inlineStylesheet(),
    inlineFavicon(),
    deferredEntry(),
    legacy.plugin,
    serviceWorker(),
    precompress(),
    prerenderPages(),
    devSiteConfig(),
  ],
  resolve: {
    conditions,
    alias: siteAliases,
  },
  // Illustrations stay separate files: cached on their own, and lazy below the fold.
  // One stylesheet, inlined into the page (inlineStylesheet): no chunk may list a CSS file of its
  // own, or loading that chunk would ask for a file the build no longer writes.
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    assetsInlineLimit: 0,
    cssCodeSplit: false,
    // No modulepreload polyfill in every first load: src/boot-route.ts covers the browsers without it.
    modulePreload: { polyfill: false },
    rolldownOptions: { optimization, output: { codeSplitting: { groups: [entryGroup] } } },
  },
  server: { proxy: { '/v1': 'http://localhost:8080' } },
});
