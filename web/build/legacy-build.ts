import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { OutputAsset, OutputChunk } from 'rolldown';
import { build, type Plugin } from 'vite';
import { baselineScriptTargets } from './baseline';
import { assertBaselineSyntax } from './baseline-syntax';
import { conditions, optimization, siteAliases } from './build-options';
import { legacyDir } from './legacy-dir';
import { legacyStylesheet } from './legacy-stylesheet';

/** The two files an old engine loads in place of the site's own, by their built paths. */
export interface LegacyAssets {
  script: string;
  stylesheet: string;
}

/**
 * The site built a second time for the oldest engines it serves
 * (docs/site.md#the-oldest-browsers-served): its scripts compiled down to the baseline,
 * with the built-ins it lacks added first (src/legacy.ts), and its stylesheet without cascade
 * layers, color-mix() or nesting (legacy-stylesheet.ts). Only an old engine fetches them: the
 * boot scripts load them in place of the site's own (src/lib/old-engine.ts). `assets` names them
 * for the boot scripts, which are built after this starts.
 */
export function legacyBuild(): { plugin: Plugin; assets: () => Promise<LegacyAssets> } {
  let files: Promise<Map<string, string | Uint8Array>> | undefined;
  let named: Promise<LegacyAssets> | undefined;
  const plugin: Plugin = {
    name: 'legacy-build',
    apply: 'build',
    configResolved: (config) => {
      files = buildLegacy(config.root);
      named = files.then(nameOf);
    },
    generateBundle: async function () {
      if (!files) return;
      for (const [fileName, source] of await files) this.emitFile({ type: 'asset', fileName, source });
    },
  };
  return { plugin, assets: () => named ?? Promise.resolve({ script: '', stylesheet: '' }) };
}

function nameOf(files: Map<string, string | Uint8Array>): LegacyAssets {
  const names = [...files.keys()];
  const script = names.find((name) => /\/legacy-[^/]+\.js$/.test(name));
  const stylesheet = names.find((name) => name.endsWith('.css'));
  if (!script || !stylesheet) throw new Error('the legacy build wrote no script or stylesheet');
  return { script: `/${script}`, stylesheet: `/${stylesheet}` };
}

/** BigInt literals (`0n`, in the contract's schema library) are past Safari 12's syntax, which
 * has BigInt() itself from 14 only: there the call throws where the literal would not parse, and
 * only the code that meets a BigInt, none of the site's, is lost. */
const bigIntCalls: Plugin = {
  name: 'legacy-big-int-calls',
  transform: {
    filter: { code: /\b\d+n\b/ },
    handler: (code) => code.replace(/(?<![\w$.])(\d+)n\b/g, 'BigInt($1)'),
  },
};

/** Every file of the legacy build, by its path under the site's output. */
async function buildLegacy(root: string): Promise<Map<string, string | Uint8Array>> {
  const output = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    plugins: [react(), tailwindcss(), bigIntCalls],
    resolve: { conditions, alias: siteAliases },
    build: {
      write: false,
      copyPublicDir: false,
      modulePreload: false,
      assetsInlineLimit: 0,
      cssCodeSplit: false,
      assetsDir: legacyDir,
      target: baselineScriptTargets,
      rolldownOptions: { input: resolve(root, 'src/legacy.ts'), optimization },
    },
  });
  const results = (Array.isArray(output) ? output : [output]).flatMap((result) =>
    'output' in result ? result.output : [],
  );
  const files = new Map<string, string | Uint8Array>();
  for (const file of results as (OutputChunk | OutputAsset)[]) {
    if (file.type === 'chunk') {
      assertBaselineSyntax(file.code, file.fileName, 'module');
      files.set(file.fileName, file.code);
    } else if (file.fileName.endsWith('.css')) {
      const css = await legacyStylesheet(String(file.source));
      const hash = createHash('sha256').update(css).digest('base64url').slice(0, 8);
      files.set(`${legacyDir}/site-${hash}.css`, css);
    } else files.set(file.fileName, file.source);
  }
  return files;
}
