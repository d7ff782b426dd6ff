// Records which release this build is, for what the server writes about itself (a backup's
// manifest, docs/backups.md#what-the-archive-holds): server/package.json's version and the git commit
// built, or SOURCE_COMMIT where the build has no .git (a container build). Written to
// server/dist/release.json by `npm run build` and scripts/ensure-built.mjs.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function builtCommit() {
  if (process.env.SOURCE_COMMIT) return process.env.SOURCE_COMMIT;
  try {
    const options = { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] };
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], options).trim();
    const changed = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], options).trim() !== '';
    return changed ? `${commit}+changes` : commit;
  } catch {
    return 'unknown';
  }
}

export function writeReleaseInfo() {
  const { version } = JSON.parse(readFileSync(`${root}server/package.json`, 'utf8'));
  const path = `${root}server/dist/release.json`;
  const text = `${JSON.stringify({ version, commit: builtCommit() })}\n`;
  // Unchanged, it keeps its time: ensure-built.mjs rebuilds what is older than server/dist.
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return;
  mkdirSync(`${root}server/dist`, { recursive: true });
  writeFileSync(path, text);
}

if (import.meta.url === `file://${process.argv[1]}`) writeReleaseInfo();
