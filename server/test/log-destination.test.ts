/**
 * The log's destination (docs/monitoring.md#logs): lines go out in batches, a lone line within
 * the flush time, lines that came during a write after it, and at rest no timer wakes the
 * process (docs/memory.md#memory-at-rest). Written to a real file.
 */
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, mock, test } from 'node:test';
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
  destination.write('one\n');
  assert.equal(out.read(), '', 'a short line waits for more');
  // How long it waits is measured on the test's own clock below.
  assert.equal(await until(out.read, (text) => text !== ''), 'one\n');
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
  // Time is the test's own: mock.timers moves it, and each flush the timer makes is counted.
  mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  try {
    const out = file('rest.log');
    const destination = new LogDestination(out.fd, { flushEveryMs: 20 });
    const flushes = mock.method(destination, 'flush');
    mock.timers.tick(1000);
    assert.equal(flushes.mock.callCount(), 0, 'nothing waits, nothing fires');
    destination.write('one\n');
    mock.timers.tick(19);
    assert.equal(flushes.mock.callCount(), 0, 'a line waits the whole flush time');
    mock.timers.tick(1);
    assert.equal(flushes.mock.callCount(), 1, 'then its timer fires');
    await until(out.read, (text) => text === 'one\n');
    mock.timers.tick(1000);
    assert.equal(flushes.mock.callCount(), 1, 'and stops once the line is out');
    destination.write('two\n');
    mock.timers.tick(19);
    assert.equal(flushes.mock.callCount(), 1);
    mock.timers.tick(1);
    assert.equal(flushes.mock.callCount(), 2, 'the next line starts it again');
    // Had the first write not called back yet, the line waits for a timer set when it does.
    await until(
      () => (mock.timers.tick(20), out.read()),
      (text) => text === 'one\ntwo\n',
    );
  } finally {
    mock.timers.reset();
  }
});
