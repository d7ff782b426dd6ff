/**
 * The browser the tests drive (support/browser.ts): the features it turns off still include every
 * one Playwright turns off itself, since Chromium keeps only the last `--disable-features` on its
 * command line, and a new page brings no renderer for the browser's own interface.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { descendants } from '../testing/process-group.js';
import { disabledFeatures, launchBrowser } from './support/browser.js';

/** The command line of the browser this process started, as the system has it: the one process
 * below this one that Playwright drives by pipe and that is not one of its renderers or helpers. */
function browserCommandLine(): string[] {
  const browsers = descendants(process.pid)
    .map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      } catch {
        return []; // ended meanwhile
      }
    })
    .filter((args) => args.includes('--remote-debugging-pipe') && !args.some((arg) => arg.startsWith('--type=')));
  const [browser, ...others] = browsers;
  assert.ok(browser !== undefined && others.length === 0, 'one browser started by this process');
  return browser;
}

test("the features turned off are Playwright's own and the address bar's popups", async (t) => {
  const browser = await launchBrowser();
  t.after(() => browser.close());
  const args = browserCommandLine();
  const lists = args
    .filter((arg) => arg.startsWith('--disable-features='))
    .map((arg) => arg.slice(arg.indexOf('=') + 1).split(','));
  assert.equal(lists.length, 2, 'Playwright passes its list, then the tests pass theirs');
  const [playwrights, ours] = lists as [string[], string[]];
  assert.deepEqual(ours, disabledFeatures, 'the last one is the one Chromium keeps');
  assert.deepEqual(
    playwrights.filter((feature) => !ours.includes(feature)),
    [],
    "Playwright turns off more than before: add its new features to support/browser.ts's list",
  );
});

test("a new page brings no renderer for the browser's own interface", async (t) => {
  const browser = await launchBrowser();
  t.after(() => browser.close());
  const context = await browser.newContext();
  await context.newPage();
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  assert.deepEqual(
    targetInfos.map(({ type, url }) => `${type} ${url}`),
    ['page about:blank'],
  );
});
