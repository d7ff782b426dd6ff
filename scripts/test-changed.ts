/**
 * The inner loop (docs/testing.md#the-inner-loop): runs the tests that can see a change, not the
 * whole suite. A change is what differs from BASE (default HEAD: the uncommitted edits) plus new
 * files git does not ignore. A test file is picked when it is changed itself or imports a changed
 * file, directly or through other files, or when its name starts with the changed file's name or
 * folder (server/src/cli/stats.ts picks server/test/cli.test.ts, console/src/features/audit/ picks
 * e2e/console-audit*.test.ts): tests that start the built server or load the built site import
 * neither. The build is brought up to date first when such a test runs. Other files: name them.
 *
 *   npm run test:changed                         what the uncommitted edits reach
 *   npm run test:changed -- main                 what the branch changed since main
 *   npm run test:changed -- e2e/site.test.ts     that file too (builds first when out of date)
 *   npm run test:changed -- --list               only list the files it would run
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { repoRoot } from '../testing/repo-root.js';

const args = process.argv.slice(2);
const named = args.filter((arg) => arg.endsWith('.ts'));
const listOnly = args.includes('--list');
const base = args.find((arg) => !arg.endsWith('.ts') && !arg.startsWith('--')) ?? 'HEAD';

const git = (...gitArgs: string[]) =>
  spawnSync('git', gitArgs, { cwd: repoRoot, encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
const changed = new Set([...git('diff', '--name-only', base), ...git('ls-files', '--others', '--exclude-standard')]);
const files = git('ls-files', '--cached', '--others', '--exclude-standard').filter((file) =>
  /\.(ts|tsx|mts|mjs)$/.test(file),
);
const known = new Set(files);

/** The contract's entry points, as its package.json maps them for the `source` condition. */
const packages: Record<string, string> = {
  '@chat-site/contract': 'packages/contract/src/index.ts',
  '@chat-site/contract/in-app': 'packages/contract/src/in-app.ts',
  '@chat-site/contract/admin': 'packages/contract/src/admin/index.ts',
};

/** The file an import names, when it is one of ours. */
function resolve(from: string, specifier: string): string | undefined {
  if (packages[specifier] !== undefined) return packages[specifier];
  if (!specifier.startsWith('.')) return undefined;
  const bare = normalize(join(dirname(from), specifier));
  const stem = bare.replace(/\.(js|mjs|ts|tsx)$/, '');
  return [bare, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.mjs`, `${stem}/index.ts`].find((path) =>
    known.has(path),
  );
}

/** Who imports each file. */
const importers = new Map<string, string[]>();
for (const file of files) {
  if (!existsSync(join(repoRoot, file))) continue;
  const text = readFileSync(join(repoRoot, file), 'utf8');
  for (const [, specifier = ''] of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
    const target = resolve(file, specifier);
    if (target !== undefined) importers.set(target, [...(importers.get(target) ?? []), file]);
  }
}

const isTest = (file: string) =>
  /^(server|web|console|packages\/contract)\/test\/.*\.test\.ts$|^e2e\/[^/]*\.test\.ts$/.test(file);
/** Files that gather every part, which every test of the server imports through its helpers:
 * the search does not climb past them, or any change would pick every test. The tests of a part
 * that go through them are picked by name instead. */
const hubs = new Set(['server/src/app.ts', 'server/src/serving.ts']);
const reached = new Set<string>();
const queue = [...changed].filter((file) => known.has(file));
while (queue.length > 0) {
  const file = queue.pop() as string;
  if (reached.has(file)) continue;
  reached.add(file);
  if (!hubs.has(file) || changed.has(file)) queue.push(...(importers.get(file) ?? []));
}
/** The names a test file may start with to be picked for `file`: its stem and its folder's
 * name, prefixed by the part for the console (e2e/console-*.test.ts). */
function namesFor(file: string): { prefix: string; names: string[] } | undefined {
  const match = /^(server|web|console)\/src\/(?:features\/)?(?:([\w-]+)\/)?(?:[\w-]+\/)*([\w-]+)\.tsx?$/.exec(file);
  if (match === null) return undefined;
  const [, part = '', folder, stem = ''] = match;
  const names = [stem, ...(folder === undefined ? [] : [folder])].filter(
    (name) => !['index', 'routes', 'lib', 'ui'].includes(name),
  );
  return { prefix: part === 'console' ? 'console-' : '', names };
}
const byName = [...changed].flatMap((file) => {
  const found = namesFor(file);
  if (found === undefined) return [];
  const testFolders = file.startsWith('server/') ? ['server/test/'] : ['e2e/', `${file.split('/')[0]}/test/`];
  return files.filter(
    (test) =>
      isTest(test) &&
      testFolders.some((folder) => test.startsWith(folder)) &&
      found.names.some((name) =>
        test.slice(test.lastIndexOf('/') + 1).startsWith(`${test.startsWith('e2e/') ? found.prefix : ''}${name}`),
      ),
  );
});
const tests = [
  ...new Set([...[...reached].filter(isTest), ...byName, ...named.map((file) => relative(repoRoot, file))]),
].sort();

/** How each folder's tests run (package.json's test:* scripts). */
const runners: [RegExp, string[]][] = [
  [
    /^server\/test\//,
    ['--import', './testing/no-leaks.ts', '--import', './testing/property-seed.ts', '--test-isolation=none'],
  ],
  [/^web\/test\//, ['--import', './web/test/setup.mjs']],
  [/^(console|packages\/contract)\/test\//, []],
  [/^e2e\//, ['--import', './testing/no-leaks.ts', '--test-concurrency=1']],
];

if (tests.length === 0) {
  console.log(`No test file sees the change since ${base}. Name one: npm run test:changed -- e2e/site.test.ts`);
  process.exit(0);
}
const siteChanged = [...changed].some((file) => /^(web|console)\/src\//.test(file));
if (siteChanged && !tests.some((file) => file.startsWith('e2e/'))) {
  console.log('web/ or console/ changed: the browser tests that show it are picked by name, not by imports.');
}
if (listOnly) {
  console.log(tests.join('\n'));
  process.exit(0);
}
let status = 0;
for (const [folder, flags] of runners) {
  const group = tests.filter((file) => folder.test(file));
  if (group.length === 0) continue;
  console.log(`\n=== ${group.join(' ')}`);
  if (folder.source.includes('e2e') || folder.source.includes('server')) {
    status ||=
      spawnSync(process.execPath, ['scripts/ensure-built.mjs'], { cwd: repoRoot, stdio: 'inherit' }).status ?? 1;
  }
  const run = spawnSync(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', ...flags, '--test', '--test-reporter=spec', ...group],
    { cwd: repoRoot, stdio: 'inherit' },
  );
  status ||= run.status ?? 1;
}
process.exit(status);
