import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  earlyCallAttribute,
  earlyRowsAttribute,
  earlyScriptAttribute,
  entryScriptsMetaName,
  escapeHtml,
  hostAttribute,
  languages,
  markedSettings,
  pageFileName,
  prerenderAttribute,
  primaryHostFrame,
  type Language,
  rootId,
  routeAttribute,
  scriptsAttribute,
} from '@chat-site/contract';
import react from '@vitejs/plugin-react';
import type { OutputBundle, OutputChunk } from 'rolldown';
import { build, type Plugin } from 'vite';
import { apiCalls, inLanguage } from '../src/lib/api-calls';
import { changelogCall } from '../src/features/changelog/api/get-changelog';
import { packagesCall } from '../src/lib/api/packages-call';
import { buildClassicScript } from './classic-script';
import { conditions } from './build-options';

interface Screen {
  /** The source of its lazy chunk (src/app/app.tsx imports it). */
  module: string;
  /** The API call its data comes from, in the page's language, which src/boot-route.ts asks for
   * before the script. */
  earlyCall: string | ((language: Language) => string);
  /** The script that draws it from the early answers before the site's script runs. */
  early?: 'src/early-download.ts' | 'src/early-list.ts';
  /** It differs on the primary domain, so it gets a second frame for it. */
  primaryHost?: boolean;
}

/** The screens prerendered beside the landing page. */
const screens: Record<string, Screen> = {
  '/download': {
    module: 'src/app/routes/download.tsx',
    earlyCall: packagesCall,
    early: 'src/early-download.ts',
    primaryHost: true,
  },
  '/downloadHelp': { module: 'src/app/routes/download-help.tsx', earlyCall: packagesCall },
  '/announcements': {
    module: 'src/app/routes/announcements.tsx',
    earlyCall: (language) => inLanguage(apiCalls.announcements, language),
    early: 'src/early-list.ts',
  },
  '/changelog': { module: 'src/app/routes/changelog.tsx', earlyCall: changelogCall },
};

const emptyRoot = `<div id="${rootId}"></div>`;

/** What the server-side build of src/app/prerender.tsx exports. */
interface Prerender {
  chooseLanguage(language: Language): Promise<void>;
  title(): string;
  render(path: string, options?: { primaryHost: boolean }): Promise<string>;
  renderEarlyList(): Promise<string>;
  renderEarlyCards(): Promise<Record<string, string>>;
}

/** The URLs of the chunk that holds the screen of `module` and of the chunks it imports, bar the
 * entry's own (which the page loads anyway). */
function screenScripts(bundle: OutputBundle, module: string): string[] {
  const chunks = Object.values(bundle).filter((item): item is OutputChunk => item.type === 'chunk');
  const chunk = chunks.find((item) => item.facadeModuleId?.endsWith(`/${module}`));
  if (chunk === undefined) throw new Error(`no chunk holds the screen of ${module}`);
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

/** src/app/prerender.tsx, built for Node from the same sources (so image URLs carry the same
 * hashes) with the settings file the server reads: SITE_CONFIG, or the committed
 * site.config.json. Text settings are markers the server fills with the current values. */
async function loadPrerender(root: string): Promise<Prerender> {
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
      'import.meta.env.PRERENDER_SITE_CONFIG': JSON.stringify(
        JSON.stringify(markedSettings(JSON.parse(readFileSync(siteConfigFile, 'utf8')) as object)),
      ),
    },
    build: { ssr: 'src/app/prerender.tsx', outDir: ssrDir, emptyOutDir: true, assetsInlineLimit: 0 },
  });
  return (await import(pathToFileURL(join(ssrDir, 'prerender.js')).href)) as Prerender;
}

/** The URL of the chunk that holds `language`'s catalog, when it is not in the entry (the
 * default's is). */
function catalogScript(bundle: OutputBundle, language: Language): string[] {
  const chunk = Object.values(bundle).find(
    (item): item is OutputChunk =>
      item.type === 'chunk' &&
      !item.isEntry &&
      item.facadeModuleId?.endsWith(`/src/config/messages.${language}.ts`) === true,
  );
  return chunk === undefined ? [] : [`/${chunk.fileName}`];
}

/**
 * The page of one language: `<html lang>`, the title, and the language's catalog, when it is a
 * chunk of its own, started with the site's script (<meta name="entry-scripts">) rather than
 * after it.
 */
function languagePage(page: string, language: Language, title: string, catalog: string[]): string {
  const lang = /<html lang="[^"]*"/;
  const titleTag = /<title>[^<]*<\/title>/;
  const scripts = new RegExp(`(<meta name="${entryScriptsMetaName}" content=")([^"]*)"`);
  for (const [name, pattern] of [
    ['<html lang>', lang],
    ['<title>', titleTag],
    [entryScriptsMetaName, scripts],
  ] as const) {
    if (!pattern.test(page)) throw new Error(`index.html has no ${name} to write the language into`);
  }
  return page
    .replace(lang, `<html lang="${language}"`)
    .replace(titleTag, () => `<title>${escapeHtml(title)}</title>`)
    .replace(scripts, (_whole, start: string, list: string) => `${start}${[list, ...catalog].join(' ')}"`);
}

/**
 * Writes the landing page and the other screens' first frames (src/app/prerender.tsx) into the
 * built index.html, and into a copy of it for each other language (pageFileName), so a first
 * paint needs no script in any language (the server picks the page: server/src/page/routes.ts),
 * and builds the scripts that draw a screen from the early answers. src/boot-route.ts puts a route's frame on screen and reads what the
 * frame's template names: its code, its first API call, its early drawing script.
 */
export function prerenderPages(): Plugin {
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
        const prerender = await loadPrerender(root);
        const indexFile = join(outDir, 'index.html');
        const page = readFileSync(indexFile, 'utf8');
        if (!page.includes(emptyRoot)) throw new Error(`${indexFile} has no ${emptyRoot} to prerender into`);
        const earlyList = await buildClassicScript(root, 'src/early-list.ts', { outDir });
        for (const language of languages) {
          await prerender.chooseLanguage(language);
          const pageIn = await renderLanguage(prerender, bundle, { root, outDir }, page, earlyList.fileName, language);
          const catalog = catalogScript(bundle, language);
          writeFileSync(
            join(outDir, pageFileName(language)),
            languagePage(pageIn, language, prerender.title(), catalog),
          );
        }
      },
    },
  };
}

/**
 * The built page with every frame in the language prerender.chooseLanguage set, and the download
 * cards' script for it, which carries the sample cards it copies (so one per language).
 */
async function renderLanguage(
  { render, renderEarlyList, renderEarlyCards }: Prerender,
  bundle: OutputBundle,
  dirs: { root: string; outDir: string },
  page: string,
  earlyList: string,
  language: Language,
): Promise<string> {
  const earlyScripts = {
    'src/early-download.ts': (
      await buildClassicScript(dirs.root, 'src/early-download.ts', {
        outDir: dirs.outDir,
        define: { __EARLY_CARDS__: JSON.stringify(await renderEarlyCards()) },
      })
    ).fileName,
    'src/early-list.ts': earlyList,
  };
  // React puts the preloads it wants (the pictures it sees) before the markup. The landing
  // page's belong in <head>; the client, which hydrates that markup, renders no such
  // element. Another route's would load its pictures on every visit to any page.
  const renderFrame = async (path: string, options?: { primaryHost: boolean }) => {
    const html = await render(path, options);
    const preloads = /^(?:<link [^>]*>)*/.exec(html)?.[0] ?? '';
    return { preloads, frame: `<div ${prerenderAttribute}="${path}">${html.slice(preloads.length)}</div>` };
  };
  const landing = await renderFrame('/');
  let body = `<div id="${rootId}">${landing.frame}</div>`;
  for (const [path, screen] of Object.entries(screens)) {
    // Inert until src/boot-route.ts picks it: its pictures load only on its own route. A
    // screen that differs on the primary domain has a second frame for it, which
    // boot-route.ts picks where the server marked the page's root (primary-host).
    const early = screen.early && ` ${earlyScriptAttribute}="/${earlyScripts[screen.early]}"`;
    const names =
      `${routeAttribute}="${path}" ${scriptsAttribute}="${screenScripts(bundle, screen.module).join(' ')}"` +
      ` ${earlyCallAttribute}="${escapeHtml(typeof screen.earlyCall === 'string' ? screen.earlyCall : screen.earlyCall(language))}"${early ?? ''}`;
    // The announcements screen also carries sample rows of its list, which the server fills with
    // the list's first rows (server/src/page/early-rows.ts), or src/early-list.ts copies to draw
    // the list from its early answer on a phone when the API is another server.
    const rows =
      screen.early === 'src/early-list.ts'
        ? `<template ${earlyRowsAttribute}>${await renderEarlyList()}</template>`
        : '';
    body += `<template ${names}>${(await renderFrame(path)).frame}${rows}</template>`;
    if (screen.primaryHost === true) {
      const primary = await renderFrame(path, { primaryHost: true });
      body += `<template ${names} ${hostAttribute}="${primaryHostFrame}">${primary.frame}</template>`;
    }
  }
  return page.replace('</head>', () => `${landing.preloads}\n</head>`).replace(emptyRoot, () => body);
}
