// Bundles the operator's command line (server/dist/cli/main.js, as tsc built it) into one file,
// server/dist/admin.js, the file `npm run admin` and the package's bin run. Loaded module by
// module it opens over a thousand files (TypeBox alone 680, Kysely 288) and took about a second
// to start on a two-core machine; bundled it starts in about a third of that. better-sqlite3
// stays outside: it loads a compiled addon from its own folder. So does the APK reader: its zip
// library calls the deprecated new Buffer(), which Node reports on stderr unless the call comes
// from inside node_modules.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
export const adminBundle = join(root, 'server/dist/admin.js');

export function bundleAdmin() {
  buildSync({
    entryPoints: [join(root, 'server/dist/cli/main.js')],
    outfile: adminBundle,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    // pg-native is pg's optional native client, never installed here.
    external: ['better-sqlite3', 'pg-native', '@devicefarmer/adbkit-apkreader'],
    // The CommonJS packages inside (commander, pg, sanitize-html) call require().
    // Named apart from the bundled modules' own top-level names, which esbuild cannot see here.
    banner: {
      js: "import { createRequire as bannerCreateRequire } from 'node:module'; const require = bannerCreateRequire(import.meta.url);",
    },
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) bundleAdmin();
