/**
 * Which release this server is: server/package.json's version and the git commit it was built
 * from, as scripts/release-info.mjs recorded them in server/dist/release.json at build time. Run
 * from the sources (the tests), the commit is git's own answer now.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverRoot } from '../paths.js';

export interface Release {
  version: string;
  commit: string;
}

let known: Release | undefined;

export function thisRelease(): Release {
  known ??= import.meta.url.endsWith('/src/backup/release.ts') ? fromSources() : fromBuild();
  return known;
}

function fromBuild(): Release {
  try {
    const recorded = JSON.parse(readFileSync(join(serverRoot, 'dist', 'release.json'), 'utf8')) as Partial<Release>;
    return { version: recorded.version ?? packageVersion(), commit: recorded.commit ?? 'unknown' };
  } catch {
    return { version: packageVersion(), commit: 'unknown' };
  }
}

function fromSources(): Release {
  let commit = 'unknown';
  try {
    const options = {
      cwd: serverRoot,
      encoding: 'utf8' as const,
      stdio: ['ignore', 'pipe', 'ignore'] as ('ignore' | 'pipe')[],
    };
    commit = execFileSync('git', ['rev-parse', 'HEAD'], options).trim();
  } catch {
    // Not a git checkout: unknown it stays.
  }
  return { version: packageVersion(), commit };
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(serverRoot, 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
