import { cookieLanguage, earlyLanguageAttribute } from '@chat-site/contract';
import { useSyncExternalStore } from 'react';
import type { MessageKey, Messages } from '../config/messages.zh-CN';
import { siteConfig } from '../config/site-config';
import { defaultLanguage, languageFromUrl, languageOf, pickLanguage, type Language } from './language-pick';
import { rememberLanguage } from './language-choice';
import { readString, storageKeys } from './storage';

export { defaultLanguage, languageFromUrl, languageOf, languages, pickLanguage, type Language } from './language-pick';

// Each catalog is a chunk of its own: the page in a language starts its catalog with the site's
// script (web/build/prerender.ts), and no page loads the others until the visitor chooses one.
const loaders: Record<Language, () => Promise<Messages>> = {
  'zh-CN': () => import('../config/messages.zh-CN').then((module) => module.zhCN),
  'zh-TW': () => import('../config/messages.zh-TW').then((module) => module.zhTW),
  en: () => import('../config/messages.en').then((module) => module.en),
};

let activeLanguage: Language = defaultLanguage;
// None until initLanguage (or the build's prerender) has loaded one: nothing renders before.
let active: Partial<Messages> = {};
const listeners = new Set<() => void>();

/** The text for `key`, with `{name}` placeholders filled from `values`. */
export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  return (active[key] ?? key).replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole));
}

export const currentLanguage = (): Language => activeLanguage;

function applyToDocument(): void {
  // The build renders the pages with each catalog in Node (src/app/prerender.tsx).
  if (typeof document === 'undefined') return;
  document.documentElement.lang = activeLanguage;
  document.title = t('meta.title', { product: siteConfig.productName });
}

let latestRequest = 0;

/** Loads `language`'s catalog and makes it the active one; every screen re-renders through
 * useLanguage. With `remember`, it is also the stored choice for the next visit. */
export async function setLanguage(language: Language, { remember = false } = {}): Promise<void> {
  const request = ++latestRequest;
  if (remember) rememberLanguage(language);
  const catalog = await loaders[language]();
  // A slower catalog must not override a later choice.
  if (request !== latestRequest) return;
  activeLanguage = language;
  active = catalog;
  applyToDocument();
  for (const listener of listeners) listener();
}

/** Removes `lang` from the hash's query, which the router does not expect there. Answers
 * whether the address changed. */
function stripHashLanguage(): boolean {
  const url = new URL(window.location.href);
  const index = url.hash.indexOf('?');
  if (index < 0) return false;
  const query = new URLSearchParams(url.hash.slice(index + 1));
  if (!query.has('lang')) return false;
  query.delete('lang');
  const rest = query.toString();
  url.hash = url.hash.slice(0, index) + (rest === '' ? '' : `?${rest}`);
  window.history.replaceState(window.history.state, '', url.href);
  return true;
}

/** After a choice in the switcher, a `?lang=` in the address would undo it on the next load. */
export function dropLanguageFromUrl(): void {
  const url = new URL(window.location.href);
  if (url.searchParams.has('lang')) {
    url.searchParams.delete('lang');
    window.history.replaceState(window.history.state, '', url.href);
  }
  stripHashLanguage();
}

/**
 * Picks the language at start-up and loads its catalog; the page renders once it is ready so a
 * visitor never sees the default language flash first. A `?lang=` becomes the stored choice. A
 * link to `#/…?lang=…` followed later in the visit switches too.
 */
export async function initLanguage(): Promise<void> {
  // A choice made in the switcher before this script ran (src/boot-route.ts) is the visitor's
  // latest word: it wins over a `?lang=`, which is then dropped, as after any switcher choice.
  const early = document.documentElement.getAttribute(earlyLanguageAttribute);
  if (early !== null) dropLanguageFromUrl();
  const fromUrl = early === null ? languageFromUrl(new URL(window.location.href)) : null;
  stripHashLanguage();
  const stored = early ?? readString(storageKeys.language);
  const language = pickLanguage(fromUrl, stored, navigator.languages ?? []);
  window.addEventListener('hashchange', () => {
    const next = languageFromUrl(new URL(window.location.href));
    if (next === null || !stripHashLanguage()) return;
    void setLanguage(next, { remember: true });
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  });
  try {
    // A choice stored before the cookie existed is written again, cookie included, so that the
    // server sends the next page prerendered in it.
    const rememberedOnly = languageOf(stored) === language && cookieLanguage(document.cookie) === null;
    await setLanguage(language, { remember: fromUrl !== null || early !== null || rememberedOnly });
  } catch {
    // The catalog chunk did not load (offline, or a deploy removed it): stay in the default.
    await setLanguage(defaultLanguage);
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The active language; the component re-renders when it changes. */
export function useLanguage(): Language {
  // The server snapshot is the active language too: the page being hydrated was prerendered in
  // it (src/main.tsx adopts only a page in the visitor's language).
  return useSyncExternalStore(subscribe, currentLanguage, currentLanguage);
}
