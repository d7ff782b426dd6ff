/**
 * The log's destination (docs/monitoring.md#logs): lines go out in batches, a lone line within
 * the flush time, lines that came during a write after it, and at rest no timer wakes the
 * process (docs/performance.md#memory-at-rest). Written to a real file.
 */
import assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { LogDestination } from '../src/lib/log-destination.js';

const dir = mkdtempSync(join(tmpdir(), 'chat-site-log-'));
const fds: number[] = [];
after(() => {
  for (const fd of fds) closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string): { fd: number; read(): string } {
  const path = join(dir, name);
  const fd = openSync(path, 'a');
  fds.push(fd);
  return { fd, read: () => readFileSync(path, 'utf8') };
}

/** Reads `read()` again at every turn of the event loop until `done` holds for it. */
async function until(read: () => string, done: (text: string) => boolean): Promise<string> {
  for (;;) {
    const text = read();
    if (done(text)) return text;
    await new Promise((next) => setImmediate(next));
  }
}

test('a lone line goes out after the flush time, not at once', async () => {
  const out = file('lone.log');
  const destination = new LogDestination(out.fd, { flushEveryMs: 50 });
  const started = performance.now();
  destination.write('one\n');
  assert.equal(out.read(), '', 'a short line waits for more');
  assert.equal(await until(out.read, (text) => text !== ''), 'one\n');
  assert.ok(performance.now() - started >= 45, 'it waited for the flush time');
});

test('a batch goes out at once, and lines that came during its write follow it', async () => {
  const out = file('batch.log');
  const destination = new LogDestination(out.fd, { batchBytes: 1024, flushEveryMs: 50 });
  const line = `${'x'.repeat(99)}\n`;
  for (let i = 0; i < 10; i++) destination.write(line);
  destination.write('late\n'); // the write of the first ten is under way
  const text = await until(out.read, (written) => written.endsWith('late\n'));
  assert.equal(text, line.repeat(10) + 'late\n');
});

test('at rest no timer fires; one runs while a line waits, then stops', async () => {
  // The destination's own timers: those made while it is being built or written to.
  let inDestination = false;
  const ours = new Set<number>();
  let fired = 0;
  const hook = createHook({
    init(id, type) {
      if (inDestination && type === 'Timeout') ours.add(id);
    },
    before(id) {
      if (ours.has(id)) fired += 1;
    },
  }).enable();
  const inside = <T>(task: () => T): T => {
    inDestination = true;
    try {
      return task();
    } finally {
      inDestination = false;
    }
  };
  try {
    const out = file('rest.log');
    const destination = inside(() => new LogDestination(out.fd, { flushEveryMs: 20 }));
    // Five flush times with nothing to write: a timer that ran regardless would fire here.
    await sleep(100);
    assert.equal(fired, 0, 'nothing waits, nothing fires');
    inside(() => destination.write('one\n'));
    await until(out.read, (text) => text === 'one\n');
    assert.equal(fired, 1, 'the line was written when its timer fired');
    await sleep(100);
    assert.equal(fired, 1, 'and the timer stopped once the line was out');
    inside(() => destination.write('two\n'));
    await until(out.read, (text) => text === 'one\ntwo\n');
    assert.equal(fired, 2, 'the next line starts it again');
  } finally {
    hook.disable();
  }
});
