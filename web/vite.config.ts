import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import type { OutputBundle, OutputChunk } from 'rolldown';
import { build, defaultClientConditions, defineConfig, minifySync, type Plugin } from 'vite';
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

/** The screens prerendered beside the landing page, with the source of each one's lazy chunk
 * (src/app/app.tsx imports them). */
const screenModules: Record<string, string> = {
  '/download': 'src/app/routes/download.tsx',
  '/downloadHelp': 'src/app/routes/download-help.tsx',
  '/announcements': 'src/app/routes/announcements.tsx',
};
/** The screens that differ on the primary domain, which get a second frame for it. */
const primaryHostScreens = new Set(['/download']);

/** The URLs of the chunk that holds the screen at `path` and of the chunks it imports, bar the
 * entry's own (which the page loads anyway). */
function screenScripts(bundle: OutputBundle, path: string): string[] {
  const chunks = Object.values(bundle).filter((item): item is OutputChunk => item.type === 'chunk');
  const module = screenModules[path];
  const chunk = chunks.find((item) => module !== undefined && item.facadeModuleId?.endsWith(`/${module}`));
  if (chunk === undefined) throw new Error(`no chunk holds the screen of ${path} (${module ?? 'unknown'})`);
  const entry = chunks.find((item) => item.isEntry);
  const loaded = new Set([entry?.fileName, ...(entry?.imports ?? [])]);
  const found: string[] = [];
  const visit = (fileName: string) => {
    if (loaded.has(fileName) || found.includes(fileName)) return;
    found.push(fileName);
    for (const imported of chunks.find((item) => item.fileName === fileName)?.imports ?? []) visit(imported);
  };
  visit(chunk.fileName);
  return found.map((fileName) => `/${fileName}`);
}

/**
 * Builds src/early-download.ts on its own, as a classic script with the sample cards it copies
 * (src/app/prerender.tsx, renderEarlyCards) written in, into the built assets; returns its URL.
 * It shares no chunk with the site's script: the download screen runs it before that script.
 */
async function buildEarlyCards(root: string, outDir: string, samples: Record<string, string>): Promise<string> {
  const output = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    resolve: { conditions },
    define: { __EARLY_CARDS__: JSON.stringify(samples) },
    build: {
      outDir,
      emptyOutDir: false,
      copyPublicDir: false,
      modulePreload: false,
      rollupOptions: {
        input: resolve(root, 'src/early-download.ts'),
        output: { format: 'iife', entryFileNames: 'assets/early-download-[hash].js' },
      },
    },
  });
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) =>
    'output' in result ? result.output : [],
  );
  const script = chunks.find((chunk) => chunk.type === 'chunk' && chunk.isEntry);
  if (script === undefined) throw new Error('the early download script was not built');
  return `/${script.fileName}`;
}

/**
 * Writes the landing page and the other screens' first frames (src/app/prerender.tsx) into the
 * built index.html, so a first paint needs no script. They are rendered in Node by a second,
 * server-side build of the same sources (so image URLs carry the same hashes), with the
 * settings file the server reads: SITE_CONFIG, or the committed site.config.json.
 */
function prerenderPages(): Plugin {
  let outDir = '';
  let root = '';
  return {
    name: 'prerender-pages',
    apply: (_config, env) => env.command === 'build' && env.isSsrBuild !== true,
    configResolved: (config) => {
      outDir = config.build.outDir;
      root = config.root;
    },
    writeBundle: {
      sequential: true,
      order: 'pre',
      handler: async (_options, bundle) => {
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
        const { render, renderEarlyList, renderEarlyCards } = (await import(
          pathToFileURL(join(ssrDir, 'prerender.js')).href
        )) as {
          render(path: string, options?: { primaryHost: boolean }): Promise<string>;
          renderEarlyList(): Promise<string>;
          renderEarlyCards(): Promise<Record<string, string>>;
        };
        const earlyCards = await buildEarlyCards(root, outDir, await renderEarlyCards());
        const indexFile = join(outDir, 'index.html');
        const page = readFileSync(indexFile, 'utf8');
        const empty = '<div id="root"></div>';
        if (!page.includes(empty)) throw new Error(`${indexFile} has no ${empty} to prerender into`);
        // React puts the preloads it wants (the pictures it sees) before the markup. The landing
        // page's belong in <head>; the client, which hydrates that markup, renders no such
        // element. Another route's would load its pictures on every visit to any page.
        const renderFrame = async (path: string, options?: { primaryHost: boolean }) => {
          const html = await render(path, options);
          const preloads = /^(?:<link [^>]*>)*/.exec(html)?.[0] ?? '';
          return { preloads, frame: `<div data-prerender="${path}">${html.slice(preloads.length)}</div>` };
        };
        const landing = await renderFrame('/');
        let body = `<div id="root">${landing.frame}</div>`;
        for (const path of Object.keys(screenModules)) {
          // Inert until src/boot-route.js picks it: its pictures load only on its own route. It
          // names the screen's code, which boot-route.js fetches beside the entry's. A screen that
          // differs on the primary domain has a second frame for it, which boot-route.js picks
          // where the server marked the page's root (server/src/page/primary-host.ts).
          const scripts = screenScripts(bundle, path).join(' ');
          const { frame } = await renderFrame(path);
          // The announcements screen also carries sample rows of its list, which boot-route.js
          // copies to draw the list from its early answer on a phone.
          const extra =
            path === '/announcements' ? `<template data-early-list>${await renderEarlyList()}</template>` : '';
          // The download screen names the script that draws its cards from the early answers.
          const early = path === '/download' ? ` data-early-script="${earlyCards}"` : '';
          body += `<template data-route="${path}" data-scripts="${scripts}"${early}>${frame}${extra}</template>`;
          if (primaryHostScreens.has(path)) {
            const primary = await renderFrame(path, { primaryHost: true });
            body += `<template data-route="${path}" data-host="primary" data-scripts="${scripts}"${early}>${primary.frame}</template>`;
          }
        }
        writeFileSync(
          indexFile,
          page.replace('</head>', () => `${landing.preloads}\n</head>`).replace(empty, () => body),
        );
      },
    },
  };
}

/**
 * What the first paint needs goes inside index.html rather than beside it: the boot scripts
 * (theme, language and route before paint) and the stylesheet. Each would otherwise be a request
 * that blocks rendering. The server allows both by their hashes in its CSP (server/src/page).
 */
function inlineHead(): Plugin[] {
  const inlineScripts = ['boot.js', 'boot-route.js'];
  const boot: Plugin = {
    name: 'inline-boot-scripts',
    apply: 'build',
    transformIndexHtml: {
      order: 'pre',
      handler: (html) =>
        inlineScripts.reduce((page, name) => {
          const tag = `<script src="/src/${name}"></script>`;
          if (!page.includes(tag)) throw new Error(`index.html has no ${tag} to inline`);
          // Minified: every byte of them is in every page, before its first paint.
          const { code, errors } = minifySync(name, readFileSync(new URL(`./src/${name}`, import.meta.url), 'utf8'));
          if (errors.length > 0) throw new Error(`${name}: ${errors.map((error) => error.message).join('; ')}`);
          const script = code.trim();
          return page.replace(tag, () => `<script>${script}</script>`);
        }, html),
    },
  };
  // The site's script is neither fetched nor run before the prerendered page has been painted:
  // src/boot-route.js starts it then, from this list (the entry first, then the modules it
  // imports). Lighthouse counts any script that has arrived by then as one the paint waited for,
  // and on a slow network it would share the first paint's bandwidth.
  const deferredEntry: Plugin = {
    name: 'deferred-entry',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) => {
        const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/;
        const preload = /<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g;
        const first = entry.exec(html)?.[1];
        if (first === undefined) throw new Error('index.html has no entry script to defer');
        const scripts = [first, ...[...html.matchAll(preload)].map((match) => match[1] as string)];
        const tag = `<meta name="entry-scripts" content="${scripts.join(' ')}">`;
        return html
          .replace(entry, '')
          .replace(preload, '')
          .replace('</head>', () => `${tag}\n</head>`);
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
  return [boot, stylesheet, deferredEntry];
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
  plugins: [react(), tailwindcss(), ...inlineHead(), serviceWorker(), precompress(), prerenderPages(), devSiteConfig()],
  resolve: { conditions },
  // Illustrations stay separate files: cached on their own, and lazy below the fold.
  // One stylesheet, inlined into the page (inlineHead): no chunk may list a CSS file of its own,
  // or loading that chunk would ask for a file the build no longer writes.
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    assetsInlineLimit: 0,
    cssCodeSplit: false,
  },
  server: { proxy: { '/v1': 'http://localhost:8080' } },
});
