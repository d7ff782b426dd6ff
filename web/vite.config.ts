import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { conditions, optimization } from './build/build-options';
import { devSiteConfig } from './build/dev-site-config';
import { deferredEntry, inlineBootScripts } from './build/early-scripts';
import { inlineStylesheet } from './build/inline-stylesheet';
import { precompress } from './build/precompress';
import { prerenderPages } from './build/prerender';
import { serviceWorker } from './build/service-worker';

// The page's boot sequence, which these plugins build: docs/architecture.md#boot-sequence.
export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    inlineBootScripts(),
    inlineStylesheet(),
    deferredEntry(),
    serviceWorker(),
    precompress(),
    prerenderPages(),
    devSiteConfig(),
  ],
  resolve: { conditions },
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
    rolldownOptions: { optimization },
  },
  server: { proxy: { '/v1': 'http://localhost:8080' } },
});
