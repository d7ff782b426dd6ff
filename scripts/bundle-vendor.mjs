// Bundles the two packages the server loads as hundreds of small ES modules, Kysely (257 files at
// a worker's start) and TypeBox (373), into a few files in server/dist/vendor, and points the
// compiled server and contract (server/dist, packages/contract/dist) at them. Node keeps a few
// kilobytes of bookkeeping for every module it loads, for the life of the process: one worker at
// rest after reads held about 6 MB less this way (docs/memory.md#few-module-files). The
// server's own files stay one module each, so their stack traces and import.meta.url are as
// written. Run after `tsc -b server`; running it again changes nothing.
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const vendorDir = join(root, 'server/dist/vendor');
const compiledDirs = ['server/dist', 'packages/contract/dist'].map((path) => join(root, path));

/** Each import the compiled code may name, and the file in server/dist/vendor that replaces it. */
const vendored = {
  kysely: 'kysely.js',
  'kysely/migration': 'kysely-migration.js',
  typebox: 'typebox.js',
  'typebox/system': 'typebox-system.js',
  'typebox/value': 'typebox-value.js',
};
const packages = [...new Set(Object.keys(vendored).map((specifier) => specifier.split('/')[0]))];

/** The installed versions the bundle was made from: a different install makes it again. */
function installedVersions() {
  const require = createRequire(join(root, 'server/package.json'));
  return Object.fromEntries(
    packages.map((name) => {
      // Neither package exports its package.json: look up from its entry.
      for (let dir = dirname(require.resolve(name)); dirname(dir) !== dir; dir = dirname(dir)) {
        const file = join(dir, 'package.json');
        const manifest = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
        if (manifest?.name === name) return [name, manifest.version];
      }
      throw new Error(`bundle-vendor: cannot find ${name}'s package.json`);
    }),
  );
}

async function bundlePackages(versions) {
  // Loaded only when the bundle is out of date: a production install has no esbuild (docs/deploy.md).
  const { build } = await import('esbuild');
  rmSync(vendorDir, { recursive: true, force: true });
  await build({
    entryPoints: Object.entries(vendored).map(([specifier, file]) => ({ in: specifier, out: file.slice(0, -3) })),
    outdir: vendorDir,
    absWorkingDir: join(root, 'server'),
    bundle: true,
    // Code the entries share (TypeBox's types, used by its value checks too) is one module, once.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    // Whitespace and syntax only: the packages' function and class names stay readable in a trace.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  writeFileSync(join(vendorDir, 'versions.json'), `${JSON.stringify(versions)}\n`);
}

function compiledFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => !path.startsWith(vendorDir));
}

const specifierPattern = new RegExp(
  String.raw`(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(${Object.keys(vendored)
    .map((name) => name.replace('/', '\\/'))
    .join('|')})\2`,
  'g',
);

/** Points one compiled file's imports of the vendored packages at the bundle; writes only a change. */
function pointAtVendor(path) {
  const text = readFileSync(path, 'utf8');
  const rewritten = text.replace(specifierPattern, (_match, keyword, quote, specifier) => {
    let target = relative(dirname(path), join(vendorDir, vendored[specifier])).replaceAll('\\', '/');
    if (!target.startsWith('.')) target = `./${target}`;
    return `${keyword}${quote}${target}${quote}`;
  });
  if (rewritten !== text) writeFileSync(path, rewritten);
}

export async function bundleVendor() {
  const versions = installedVersions();
  const versionsFile = join(vendorDir, 'versions.json');
  const current = existsSync(versionsFile) ? readFileSync(versionsFile, 'utf8').trim() : '';
  if (current !== JSON.stringify(versions)) await bundlePackages(versions);
  for (const dir of compiledDirs) for (const path of compiledFiles(dir)) pointAtVendor(path);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleVendor();
