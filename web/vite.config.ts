import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { build, defaultClientConditions, defineConfig, type Plugin } from 'vite';
import { markedSettings } from '../server/src/page/prerender-marker';
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

const conditions = ['source', ...defaultClientConditions];

/**
 * Writes the landing page (src/app/prerender.tsx) into the built index.html, so its first paint
 * needs no script. It is rendered in Node by a second, server-side build of the same sources (so
 * image URLs carry the same hashes), with the settings file the server reads: SITE_CONFIG, or
 * the committed site.config.json.
 */
function prerenderLanding(): Plugin {
  let outDir = '';
  let root = '';
  return {
    name: 'prerender-landing',
    apply: (_config, env) => env.command === 'build' && env.isSsrBuild !== true,
    configResolved: (config) => {
      outDir = config.build.outDir;
      root = config.root;
    },
    writeBundle: {
      sequential: true,
      order: 'pre',
      handler: async () => {
        const siteConfigFile = resolve(root, '..', process.env.SITE_CONFIG ?? 'site.config.json');
        // Inside node_modules, so the bundle's imports of react and react-dom resolve.
        const ssrDir = join(root, 'node_modules/.prerender');
        await build({
          configFile: false,
          root,
          logLevel: 'warn',
          plugins: [react()],
          resolve: { conditions },
          ssr: { noExternal: ['@chat-site/contract'] },
          define: {
            // Text settings as markers the server fills with the current values.
            'import.meta.env.PRERENDER_SITE_CONFIG': JSON.stringify(
              JSON.stringify(markedSettings(JSON.parse(readFileSync(siteConfigFile, 'utf8')) as object)),
            ),
          },
          build: { ssr: 'src/app/prerender.tsx', outDir: ssrDir, emptyOutDir: true, assetsInlineLimit: 0 },
        });
        const { render } = (await import(pathToFileURL(join(ssrDir, 'prerender.js')).href)) as { render(): string };
        const indexFile = join(outDir, 'index.html');
        const page = readFileSync(indexFile, 'utf8');
        const empty = '<div id="root"></div>';
        if (!page.includes(empty)) throw new Error(`${indexFile} has no ${empty} to prerender into`);
        writeFileSync(indexFile, page.replace(empty, `<div id="root"><div data-prerender="">${render()}</div></div>`));
      },
    },
  };
}

/**
 * What the first paint needs goes inside index.html rather than beside it: the boot script
 * (theme and language before paint) and the stylesheet. Each would otherwise be a request that
 * blocks rendering. The server allows both by their hashes in its CSP (server/src/page).
 */
function inlineHead(): Plugin[] {
  const bootTag = '<script src="/src/boot.js"></script>';
  const boot: Plugin = {
    name: 'inline-boot-script',
    apply: 'build',
    transformIndexHtml: {
      order: 'pre',
      handler: (html) => {
        if (!html.includes(bootTag)) throw new Error(`index.html has no ${bootTag} to inline`);
        const script = readFileSync(new URL('./src/boot.js', import.meta.url), 'utf8')
          .replace(/^\s*\/\/.*\n/gm, '')
          .trim();
        return html.replace(bootTag, () => `<script>${script}</script>`);
      },
    },
  };
  const stylesheet: Plugin = {
    name: 'inline-stylesheet',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html, context) => {
        let page = html;
        for (const asset of Object.values(context.bundle ?? {})) {
          if (asset.type !== 'asset' || !asset.fileName.endsWith('.css')) continue;
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
  return [boot, stylesheet];
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
  plugins: [
    react(),
    tailwindcss(),
    ...inlineHead(),
    serviceWorker(),
    precompress(),
    prerenderLanding(),
    devSiteConfig(),
  ],
  resolve: { conditions },
  // Illustrations stay separate files: cached on their own, and lazy below the fold.
  build: { outDir: 'dist', assetsDir: 'assets', target: 'es2022', sourcemap: false, assetsInlineLimit: 0 },
  server: { proxy: { '/v1': 'http://localhost:8080' } },
});
