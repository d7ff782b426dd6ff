import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';
import { serviceWorker } from './build/service-worker';

/** Writes .br and .gz beside every text asset, so the server sends them without compressing
 * on each request (at brotli's best quality, which is too slow to do per request). */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved: (config) => {
      outDir = config.build.outDir;
    },
    closeBundle: () => {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path];
        });
      for (const file of walk(outDir).filter((path) => /\.(js|css|svg|json|txt|webmanifest)$/.test(path))) {
        const data = readFileSync(file);
        if (data.byteLength < 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

/** In development the page comes from Vite, not the server: carry the committed site config
 * the way the server does, so `npm run dev -w web` behaves like the real thing. */
function devSiteConfig(): Plugin {
  return {
    name: 'dev-site-config',
    apply: 'serve',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { name: 'site-config', content: readFileSync(new URL('../site.config.json', import.meta.url), 'utf8') },
        injectTo: 'head',
      },
    ],
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), serviceWorker(), precompress(), devSiteConfig()],
  resolve: { conditions: ['source', ...defaultClientConditions] },
  // Illustrations stay separate files: cached on their own, and lazy below the fold.
  build: { outDir: 'dist', assetsDir: 'assets', target: 'es2022', sourcemap: false, assetsInlineLimit: 0 },
  server: { proxy: { '/v1': 'http://localhost:8080' } },
});
