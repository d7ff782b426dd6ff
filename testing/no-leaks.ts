/**
 * Loaded with `--import` by the test scripts (package.json): a test file whose process is still
 * alive a while after its last test fails, naming what holds it open (a
 * server, a browser, a child process, a socket, a timer), instead of hanging the whole run.
 * See docs/testing.md#how-tests-start-and-stop-processes.
 */
import type { ChildProcess } from 'node:child_process';
import { Server, Socket } from 'node:net';
import { after } from 'node:test';

/** Time the process gets to exit once its last hook has run: closing is quick, but the machine
 * may be busy. Only a file that leaks ever waits for it. */
const graceMs = Number(process.env.LEAK_GRACE_MS ?? 60_000);

/** What each handle is, as far as it can tell. */
function describeHandles(): string[] {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return handles.flatMap((handle) => {
    if (handle === process.stdout || handle === process.stderr || handle === process.stdin) return [];
    if (handle instanceof Server) return [`a server listening on ${JSON.stringify(handle.address())}`];
    if (handle instanceof Socket) {
      if (handle.remotePort === undefined) return [];
      return [`a socket to ${handle.remoteAddress ?? '?'}:${handle.remotePort}`];
    }
    const child = handle as Partial<ChildProcess>;
    if (child.pid !== undefined && Array.isArray(child.spawnargs))
      return [`child process ${child.pid}: ${child.spawnargs.join(' ').slice(0, 200)}`];
    return [handle?.constructor?.name ?? typeof handle];
  });
}

/** Whether the test files run inside this process (`--test-isolation=none`, as the server suite
 * runs: docs/testing.md#the-whole-suite) rather than each in a child of its own. */
const filesRunHere = process.execArgv.some(
  (flag, index, flags) =>
    /^--(experimental-)?test-isolation(=none)?$/.test(flag) && (flag.endsWith('=none') || flags[index + 1] === 'none'),
);

// Only where test files run: the runner that starts each file in a process of its own loads this
// too. Loaded before the files, this is the first of the top-level `after` hooks: it runs once
// every test is done, and the files' own hooks (closing their servers and browsers) run within
// the grace time. With every file in one process, it names what is left open at the very end.
if (process.env.NODE_TEST_CONTEXT !== undefined || filesRunHere) {
  after(() => {
    setTimeout(() => {
      const resources = process.getActiveResourcesInfo();
      // This timer is one of the timers counted.
      resources.splice(resources.indexOf('Timeout'), 1);
      console.error(
        `the tests did not exit within ${graceMs / 1000} s of the last one; still open:\n` +
          `  ${[...describeHandles(), ...resources].join('\n  ')}`,
      );
      process.exit(1);
    }, graceMs).unref();
  });
}
