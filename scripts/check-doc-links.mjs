// `node scripts/check-doc-links.mjs` (part of `npm run lint`): every link between README.md and
// docs/*.md, and every `docs/<file>.md#<section>` a code comment or a deployment file names, must lead to a file that
// exists and a heading it has. Anchors are made as GitHub makes them from a heading.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const codeFolders = [
  'web/src',
  'web/build',
  'web/test',
  'server/src',
  'server/test',
  'packages/contract',
  'console/src',
  'console/test',
  'e2e',
  'scripts',
  'testing',
  'deploy',
];
/** Code, and the deployment files whose comments send operators to the docs. */
const codeFile = /(\.(ts|tsx|js|mjs|css|sh|conf|yaml|yml)|\.env\.example|Dockerfile)$/;
/** Files at the root that are not in a folder above. */
const rootFiles = ['Dockerfile'];

/** The lines of a Markdown file outside its fenced code blocks. */
function proseLines(text) {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else return !fenced;
    return false;
  });
}

/** GitHub's anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(file) {
  const anchors = new Set();
  for (const line of proseLines(readFileSync(file, 'utf8'))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let unique = slug;
    for (let n = 1; anchors.has(unique); n++) unique = `${slug}-${n}`;
    anchors.add(unique);
  }
  return anchors;
}

const anchorCache = new Map();
const problems = [];

/** Checks that `target` (a path, maybe with #anchor) exists, relative to `from`'s folder. */
function check(from, target, where) {
  const [path, anchor] = target.split('#');
  const file = path === '' ? from : resolve(dirname(from), path);
  if (!existsSync(file)) return problems.push(`${where}: ${target}: no such file`);
  if (anchor === undefined || !file.endsWith('.md')) return;
  if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(file));
  if (!anchorCache.get(file).has(anchor)) problems.push(`${where}: ${target}: no such section`);
}

const docs = ['README.md', ...readdirSync(join(root, 'docs')).map((name) => `docs/${name}`)].filter((name) =>
  name.endsWith('.md'),
);
for (const doc of docs) {
  const file = join(root, doc);
  proseLines(readFileSync(file, 'utf8')).forEach((line) => {
    for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!/^[a-z]+:/i.test(target)) check(file, target, doc);
    }
  });
}

const codeFiles = codeFolders.flatMap((folder) =>
  readdirSync(join(root, folder), { recursive: true })
    .filter((name) => codeFile.test(name) && !/(^|\/)(node_modules|dist)\//.test(name))
    .map((name) => join(root, folder, name)),
);
for (const file of [...codeFiles, ...rootFiles.map((name) => join(root, name))]) {
  {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      for (const [target] of line.matchAll(/docs\/[\w.-]+\.md(#[\w-]+)?/g)) {
        check(join(root, 'README.md'), target, `${relative(root, file)}:${index + 1}`);
      }
    });
  }
}

if (problems.length > 0) {
  console.error(`Broken documentation links:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  process.exitCode = 1;
}
