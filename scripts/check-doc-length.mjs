// `node scripts/check-doc-length.mjs` (part of `npm run lint`): the documentation stays short
// enough to read. Each file in docs/ holds at most 500 lines, docs/performance.md at most 250 (the
// goals, the commands and the latest figures; what was tried lives in commit messages), and the
// README, a newcomer's first page, at most 10,000 bytes. A file over its limit is split by what a
// reader looks for, not trimmed of rules.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const lineLimits = { 'performance.md': 250 };
const defaultLineLimit = 500;
const readmeByteLimit = 10_000;

const problems = [];
for (const name of readdirSync(join(root, 'docs')).filter((file) => file.endsWith('.md'))) {
  const lines = readFileSync(join(root, 'docs', name), 'utf8').split('\n').length - 1;
  const limit = lineLimits[name] ?? defaultLineLimit;
  if (lines > limit) problems.push(`docs/${name}: ${lines} lines, over its limit of ${limit}`);
}
const readmeBytes = readFileSync(join(root, 'README.md')).length;
if (readmeBytes > readmeByteLimit) {
  problems.push(`README.md: ${readmeBytes} bytes, over its limit of ${readmeByteLimit}`);
}
if (problems.length > 0) {
  console.error(`Documentation over its length limit:\n${problems.join('\n')}`);
  process.exit(1);
}
