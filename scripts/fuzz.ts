/**
 * `npm run fuzz`: the differential test of the socket's reader (server/test/socket-reader-fuzz.test.ts)
 * with more streams and a new seed each time: FUZZ_RUNS streams (default 20,000) from FUZZ_SEED
 * (default: a random one, printed first, so that a failure can be run again with it). Run it
 * before changing pipeline/replay-connections.ts; a failing stream it finds becomes an example in that
 * test (docs/architecture.md#replays-on-the-socket).
 */
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { repoRoot } from '../testing/repo-root.js';

const seed = process.env.FUZZ_SEED || String(randomInt(2 ** 31));
const runs = process.env.FUZZ_RUNS || '20000';
console.log(`fuzz: ${runs} streams from seed ${seed} (again: FUZZ_SEED=${seed} FUZZ_RUNS=${runs} npm run fuzz)`);
const { status } = spawnSync(
  process.execPath,
  [
    '--conditions=source',
    '--import',
    'tsx',
    '--import',
    './testing/no-leaks.ts',
    '--test',
    '--test-reporter=spec',
    'server/test/socket-reader-fuzz.test.ts',
  ],
  { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, FUZZ_SEED: seed, FUZZ_RUNS: runs } },
);
process.exit(status ?? 1);
