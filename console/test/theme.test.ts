// The console's theme: the site's rule with a stored choice of its own (docs/site.md#theme).
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';

/** What the theme modules touch of a browser: storage, the system's preference, the page root. */
const stored = new Map<string, string>();
let refuseStorage = false;
let systemDark = false;
const classes = new Set<string>();
const root = {
  classList: { toggle: (name: string, on: boolean) => (on ? classes.add(name) : classes.delete(name)) },
  style: { colorScheme: '' },
};
const storage = {
  getItem: (key: string) => {
    if (refuseStorage) throw new Error('SecurityError');
    return stored.get(key) ?? null;
  },
  setItem: (key: string, value: string) => {
    if (refuseStorage) throw new Error('SecurityError');
    stored.set(key, value);
  },
};
Object.assign(globalThis, {
  window: {
    localStorage: storage,
    matchMedia: (query: string) => ({ matches: query.includes('dark') === systemDark }),
  },
  document: { documentElement: root },
});

const consoleTheme = await import('../src/lib/theme');
const site = await import('../../web/src/console-surface/theme');

beforeEach(() => {
  stored.clear();
  classes.clear();
  refuseStorage = false;
  systemDark = false;
});

test('without a choice the console follows the system, the site is dark', () => {
  assert.equal(consoleTheme.currentTheme(), 'light');
  systemDark = true;
  assert.equal(consoleTheme.currentTheme(), 'dark');
  systemDark = false;
  assert.equal(site.storedTheme(), 'dark');
});

test("the console's choice is kept under its own key and leaves the site's alone", () => {
  site.saveTheme('dark');
  consoleTheme.setTheme('light');
  assert.equal(stored.get('chat-site-console-theme'), 'light');
  assert.equal(stored.get('chat-site.theme'), 'dark');
  assert.equal(consoleTheme.currentTheme(), 'light');
  assert.equal(site.storedTheme(), 'dark');
});

test('applying a theme puts its class and color-scheme on the page root', () => {
  consoleTheme.applyTheme('dark');
  assert.deepEqual([...classes], ['dark']);
  assert.equal(root.style.colorScheme, 'dark');
  consoleTheme.setTheme('light');
  assert.deepEqual([...classes], ['light']);
  assert.equal(root.style.colorScheme, 'light');
});

test('the stored choice is applied when none is given, and refused storage falls back to the system', () => {
  stored.set('chat-site-console-theme', 'dark');
  consoleTheme.applyTheme();
  assert.deepEqual([...classes], ['dark']);
  refuseStorage = true;
  systemDark = false;
  assert.equal(consoleTheme.currentTheme(), 'light');
  consoleTheme.setTheme('dark');
  assert.deepEqual([...classes], ['dark'], 'it still applies, only unkept');
});

test('an unknown stored value counts as no choice', () => {
  stored.set('chat-site-console-theme', 'sepia');
  systemDark = true;
  assert.equal(consoleTheme.currentTheme(), 'dark');
  assert.equal(site.resolvedTheme('system'), 'dark');
});
