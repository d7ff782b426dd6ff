// `npm run test:web` loads this before the tests (--import): what the site's modules expect of a
// browser and of Vite, and nothing more, so the tests run in plain Node. The page's
// <meta name="site-config"> is the committed site.config.json; local storage is kept in memory.
import { readFileSync } from 'node:fs';
import { register } from 'node:module';

register('./vite-env-hooks.mjs', import.meta.url);

const siteConfig = readFileSync(new URL('../../site.config.json', import.meta.url), 'utf8');

/** Storage as the site uses it: strings by key, `clear()` between tests. */
class MemoryStorage {
  #items = new Map();
  getItem(key) {
    return this.#items.has(key) ? this.#items.get(key) : null;
  }
  setItem(key, value) {
    this.#items.set(key, String(value));
  }
  removeItem(key) {
    this.#items.delete(key);
  }
  clear() {
    this.#items.clear();
  }
}

globalThis.window = globalThis;
globalThis.localStorage = new MemoryStorage();
globalThis.document = {
  title: '',
  documentElement: { lang: '', getAttribute: () => null },
  querySelector: (selector) => (selector === 'meta[name="site-config"]' ? { content: siteConfig } : null),
};
