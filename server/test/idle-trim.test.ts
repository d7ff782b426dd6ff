/** A server process at rest gives back what its heap grew by (docs/memory.md#memory-at-rest). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { heldBytes, shouldTrim, worthTrimmingBytes } from '../src/lib/idle-trim.js';
import { workerExecArgv } from '../src/cluster/supervisor.js';
import { loadConfig } from '../src/config.js';
import { createTestDatabase, repoRoot, spawnServer, testEnv, type ServerProcess } from './helpers.js';

const mb = 1024 * 1024;

/** The anonymous memory (heap, stacks, malloc) of a process, in bytes. */
function anonymousBytes(pid: number): number {
  const kb = /^RssAnon:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/** The first line `server` logs, or has logged, that `accepts`; refused after `ms`. */
async function loggedWithin(server: ServerProcess, accepts: (line: string) => boolean, ms = 60_000): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`not logged within ${ms / 1000} s:\n${server.logs.join('\n')}`)), ms);
  });
  try {
    return await Promise.race([server.logged(accepts), limit]);
  } finally {
    clearTimeout(timer);
  }
}

interface TrimLine {
  msg: string;
  heapBefore: number;
  heapAfter: number;
  ms: number;
}

describe('giving memory back at rest', () => {
  test('a window ending at rest with the heap grown since the last trim is trimmed; no other', () => {
    const windowMs = 10_000;
    const grown = { heldNowBytes: 60 * mb, floorBytes: 40 * mb };
    assert.equal(shouldTrim({ cpuMs: 5, windowMs, ...grown }), true, 'quiet, grown by 20 MB');
    assert.equal(shouldTrim({ cpuMs: 900, windowMs, ...grown }), false, 'serving: 9 % of a CPU');
    assert.equal(
      shouldTrim({ cpuMs: 5, windowMs, heldNowBytes: 40 * mb + worthTrimmingBytes - 1, floorBytes: 40 * mb }),
      false,
      'grown by too little to be worth a collection',
    );
    assert.equal(shouldTrim({ cpuMs: 5, windowMs, heldNowBytes: 50 * mb, floorBytes: 0 }), true, 'after start');
  });

  test('Buffers outside the heap count as grown: a burst of answers leaves them for a collection', () => {
    const before = heldBytes();
    // Twenty answers' worth of 1 MB bodies, outside V8's heap, which hardly grows for them.
    const bodies = Array.from({ length: 20 }, () => Buffer.alloc(mb, 1));
    const grownBy = heldBytes() - before;
    assert.ok(grownBy >= 15 * mb, `held ${(grownBy / mb).toFixed(1)} MB more with 20 MB of Buffers`);
    assert.ok(shouldTrim({ cpuMs: 0, windowMs: 10_000, heldNowBytes: heldBytes(), floorBytes: before }));
    assert.equal(bodies.length, 20);
  });

  test('IDLE_TRIM_SECONDS: 60 by default, 0 turns it off, anything else is refused', () => {
    const site = { SITE_CONFIG: `${repoRoot}/site.config.json` };
    assert.equal(loadConfig(site).idleTrimMs, 60_000);
    assert.equal(loadConfig({ ...site, IDLE_TRIM_SECONDS: '0' }).idleTrimMs, 0);
    for (const bad of ['-1', '1.5', 'soon', '86401'])
      assert.throws(() => loadConfig({ ...site, IDLE_TRIM_SECONDS: bad }), /IDLE_TRIM_SECONDS/, bad);
  });

  test('after a burst of reads, a quiet server gives its heap growth back to the system', async () => {
    const database = await createTestDatabase();
    // With a worker's fixed young generation (cluster/supervisor.ts), whose second half a burst
    // of reads commits and a trim gives back.
    const server = await spawnServer(testEnv(database, { DEMO_CONTENT: '1', IDLE_TRIM_SECONDS: '1' }), {
      nodeArgs: workerExecArgv([]),
    });
    try {
      const trimLine = (line: string) => line.includes('"gave memory back at rest"');
      const trims = () => server.logs.filter(trimLine).length;
      // The first quiet window after start gives back what starting took.
      await loggedWithin(server, trimLine);
      const pid = server.child.pid ?? 0;
      const before = trims();

      const paths = ['/v1/bulletin/page', '/v1/common/appconfig', '/v1/bulletin/detail?id=1', '/healthz'];
      let next = 0;
      const reader = async () => {
        while (next < 3_000) {
          const path = paths[next++ % paths.length] ?? '/';
          const res = await fetch(`${server.url}${path}`);
          await res.arrayBuffer();
        }
      };
      await Promise.all(Array.from({ length: 16 }, reader));
      // A whole quiet window has not passed yet: nothing has been given back since the reads.
      const afterReads = anonymousBytes(pid);
      assert.equal(trims(), before);

      const line = JSON.parse(await loggedWithin(server, (text) => trimLine(text) && trims() > before)) as TrimLine;
      const afterTrim = anonymousBytes(pid);
      assert.ok(line.heapAfter < line.heapBefore, JSON.stringify(line));
      assert.ok(
        afterReads - afterTrim >= worthTrimmingBytes,
        `anonymous memory ${(afterReads / mb).toFixed(1)} MB after the reads, ${(afterTrim / mb).toFixed(1)} MB at rest`,
      );
    } finally {
      await server.stop();
      await database.drop();
    }
  });
});
