import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Writes .br and .gz beside every text asset, so the server sends them without compressing
 * on each request (at brotli's best quality, which is too slow to do per request). Small files
 * too, whenever compressed is smaller: the server compresses nothing under 1 KB itself, and two of
 * the landing page's scripts are under it (docs/performance.md#the-first-load-budget). */
export function precompress(): Plugin {
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
        const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
        const gz = gzipSync(data, { level: 9 });
        if (br.byteLength < data.byteLength) writeFileSync(`${file}.br`, br);
        if (gz.byteLength < data.byteLength) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}
