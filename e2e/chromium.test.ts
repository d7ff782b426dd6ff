/**
 * The browser the tests drive (support/browser.ts): the features it turns off still include every
 * one Playwright turns off itself, since Chromium keeps only the last `--disable-features` on its
 * command line, and a new page brings no renderer for the browser's own interface. The same for
 * the browser Lighthouse measures in, which chrome-launcher starts with its own list.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { descendants } from '../testing/process-group.js';
import { Launcher } from 'chrome-launcher';
import { chromium } from 'playwright-core';
import { disabledFeatures, featureLists, launchBrowser, launchForLighthouse } from './support/browser.js';

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
  const lists = featureLists(browserCommandLine());
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

test("Lighthouse's browser keeps chrome-launcher's features off and has no address bar popup", async (t) => {
  const chrome = await launchForLighthouse();
  t.after(() => chrome.kill());
  const lists = featureLists(readFileSync(`/proc/${chrome.pid}/cmdline`, 'utf8').split('\0'));
  assert.equal(lists.length, 1, 'one list, so none is lost');
  const features = lists[0] ?? [];
  const [launchers] = featureLists(Launcher.defaultFlags());
  assert.ok(launchers !== undefined && launchers.length > 0, 'chrome-launcher still turns features off');
  assert.deepEqual(features, [...launchers, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']);
  assert.ok(!features.includes('PaintHolding'), 'paint holding stays as Lighthouse measures it');
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  t.after(() => browser.close());
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  assert.deepEqual(
    targetInfos.filter(({ url }) => url.startsWith('chrome://')).map(({ url }) => url),
    [],
  );
});
