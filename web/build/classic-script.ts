import { resolve } from 'node:path';
import type { OutputChunk } from 'rolldown';
import { build } from 'vite';
import { baselineScriptTargets } from './baseline';
import { assertBaselineSyntax } from './baseline-syntax';
import { conditions, optimization } from './build-options';

/**
 * Builds `entry` (under the site's `root`) on its own, as one minified classic script: the boot
 * scripts written inline into the page (early-scripts.ts), and the scripts that draw a screen
 * from the early answers (prerender.ts). It imports the site's own modules for the rules it
 * shares with the site, and shares no chunk with the site's script, which runs after it. With
 * `outDir` it is written there, under assets/ with its hash; without, only returned. Compiled for
 * the oldest engines served, as they run it too: docs/site.md#the-oldest-browsers-served.
 */
export async function buildClassicScript(
  root: string,
  entry: string,
  { define = {}, outDir }: { define?: Record<string, string>; outDir?: string } = {},
): Promise<OutputChunk> {
  const output = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    resolve: { conditions },
    define,
    build: {
      outDir: outDir ?? 'dist',
      write: outDir !== undefined,
      emptyOutDir: false,
      copyPublicDir: false,
      modulePreload: false,
      target: baselineScriptTargets,
      rolldownOptions: {
        input: resolve(root, entry),
        output: { format: 'iife', entryFileNames: 'assets/[name]-[hash].js' },
        optimization,
      },
    },
  });
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) =>
    'output' in result ? result.output : [],
  );
  const script = chunks.find((chunk): chunk is OutputChunk => chunk.type === 'chunk' && chunk.isEntry);
  if (script === undefined) throw new Error(`${entry} was not built`);
  assertBaselineSyntax(script.code, entry, 'script');
  return script;
}
