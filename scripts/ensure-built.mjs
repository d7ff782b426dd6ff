// Builds whatever is out of date before the server or the admin command runs: the server with
// `tsc -b` (incremental, about a second when nothing changed) with Kysely and TypeBox bundled
// (scripts/bundle-vendor.mjs), the admin command's bundle
// (scripts/bundle-admin.mjs) when the server's compiled files are newer, and the site with Vite
// when any of its sources is newer than the last build, and the operator console likewise.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

// An install without development packages (npm ci --omit=dev) has no build tools, with or
// without NODE_ENV=production: what `npm run build` left is used as it is (docs/deploy.md), and
// nothing here loads esbuild, whose absence would end in a stack trace.
const buildTools = ['esbuild', 'typescript', 'vite'].every((name) =>
  existsSync(join(root, 'node_modules', name, 'package.json')),
);
const production = process.env.NODE_ENV === 'production' || !buildTools;
const { adminBundle, bundleAdmin } = production ? {} : await import('./bundle-admin.mjs');
const { bundleVendor } = production ? {} : await import('./bundle-vendor.mjs');
// A production install ships only this script and start.mjs (the Dockerfile's list): what
// building needs is loaded only where it builds.
const { writeReleaseInfo } = production ? {} : await import('./release-info.mjs');
const run = (args, cwd = root) =>
  execFileSync(process.execPath, args, { cwd, stdio: ['ignore', process.stderr, process.stderr] });

/** The newest modification time below `path`, leaving out the paths `skip` names. */
function newestChange(path, skip = () => false) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  const inside = readdirSync(path)
    .map((name) => join(path, name))
    .filter((entry) => !skip(entry));
  return Math.max(0, ...inside.map((entry) => newestChange(entry, skip)));
}

const isBundle = (path) => path.startsWith(adminBundle);

export async function ensureBuilt() {
  run(['node_modules/typescript/bin/tsc', '-b', 'server']);
  // Kysely and TypeBox as a few files, and the compiled code pointed at them; a no-op when done.
  await bundleVendor();
  writeReleaseInfo();
  const compiled = ['server/dist', 'packages/contract/dist'].map((path) => newestChange(join(root, path), isBundle));
  if (!existsSync(adminBundle) || statSync(adminBundle).mtimeMs < Math.max(...compiled)) bundleAdmin();
  const built = join(root, 'web/dist/index.html');
  const sources = [
    'web/src',
    'web/public',
    'web/index.html',
    'web/vite.config.ts',
    'web/build',
    'packages/contract/src',
  ];
  const sourcesChanged = Math.max(...sources.map((path) => newestChange(join(root, path))));
  if (!existsSync(built) || statSync(built).mtimeMs < sourcesChanged) {
    process.stderr.write('Building the site…\n');
    run([join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], join(root, 'web'));
  }
  // The console draws announcements with the site's components and styles: a change there counts.
  const consoleBuilt = join(root, 'console/dist/index.html');
  const consoleSources = ['console/src', 'console/index.html', 'console/preview.html', 'console/vite.config.ts'];
  const consoleChanged = Math.max(sourcesChanged, ...consoleSources.map((path) => newestChange(join(root, path))));
  if (!existsSync(consoleBuilt) || statSync(consoleBuilt).mtimeMs < consoleChanged) {
    process.stderr.write('Building the console…\n');
    run([join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], join(root, 'console'));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!production) await ensureBuilt();
  else if (!existsSync(join(root, 'server/dist/admin.js'))) {
    process.stderr.write(
      'This install has no build tools (npm ci --omit=dev) and no build: run `npm ci && npm run build` ' +
        'where the development packages are installed, then copy the built tree (docs/deploy.md).\n',
    );
    process.exit(1);
  }
}
