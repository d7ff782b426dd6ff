// Builds whatever is out of date before the server or the admin command runs. `tsc -b` is
// incremental, so when nothing changed this takes about a second.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export function ensureBuilt() {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'server'], {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureBuilt();
