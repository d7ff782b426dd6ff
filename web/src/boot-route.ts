/**
 * Runs at the end of <body>, before the first paint: the build compiles it and writes it inline
 * there (web/build/early-scripts.ts), and the server's CSP allows it by its hash. The whole boot
 * sequence: docs/boot.md#boot-sequence.
 * 1. Puts the current route's prerendered first frame on screen: the landing page is already in
 *    #root; another route's is in a <template data-route> (web/build/prerender.ts). A route with
 *    none (an announcement's own address, an unknown one) gets an empty page until the site's
 *    script renders it.
 * 2. Starts the site's script (the build lists it in <meta name="entry-scripts">, the entry
 *    first) once that frame is on screen, so none of it is fetched or run before that paint: on
 *    a screen whole without the API (the landing page, the tutorial, the changelog) after the
 *    load event (its pictures are in) and its first paint; on a screen drawn from the early
 *    answers (4. below) once it is drawn; with nothing to show, at once.
 */
import {
  earlyCallAttribute,
  earlyLanguageAttribute,
  earlyListAttribute,
  earlyListTiming,
  earlyRowsAttribute,
  earlyScriptAttribute,
  entryScriptsMetaName,
  hostAttribute,
  prerenderOffClass,
  primaryHostClass,
  primaryHostFrame,
  rootId,
  routeAttribute,
  runningAttribute,
  scriptsAttribute,
} from '@chat-site/contract';
import { wideQuery } from './config/constants';
import { readSiteConfig } from './config/read-site-config';
import { knownApiAddrs, lastApiAddr } from './lib/api-addrs';
import { apiCalls, apiUrl, fetchApi } from './lib/api-calls';
import { setEarlyAnswers, type EarlyAnswers } from './lib/early-answers';
import { routePath } from './lib/route-path';
import { rememberLanguage } from './lib/language-choice';
import { legacyScript, oldEngine } from './lib/old-engine';

const root = document.documentElement;
const app = document.getElementById(rootId) as HTMLElement;
const path = routePath();
const running = () => root.hasAttribute(runningAttribute);
// On the primary domain (the server marks the root), a screen's frame for that domain if it
// has one.
const frames = `template[${routeAttribute}="${path}"]`;
const frame =
  path === '/'
    ? null
    : (root.classList.contains(primaryHostClass) &&
        document.querySelector<HTMLTemplateElement>(`${frames}[${hostAttribute}="${primaryHostFrame}"]`)) ||
      document.querySelector<HTMLTemplateElement>(`${frames}:not([${hostAttribute}])`);
const shown = !root.classList.contains(prerenderOffClass) && (path === '/' || frame !== null);
if (shown && frame) {
  app.textContent = '';
  app.append(frame.content.cloneNode(true));
}
if (!shown) root.classList.add(prerenderOffClass);

let started = false;
function start(): void {
  const list = document.querySelector<HTMLMetaElement>(`meta[name="${entryScriptsMetaName}"]`);
  if (started || !list) return;
  askEarly();
  started = true;
  // The entry, the modules it imports, and the code of the screen whose frame is shown; in an old
  // engine, the legacy build's entry, which loads the rest itself.
  // `&&` and `||` rather than `?.` and `??` in this file: compiled for the oldest engines served,
  // they cost every first load bytes (docs/site.md#the-oldest-browsers-served).
  const screen = frame && frame.getAttribute(scriptsAttribute);
  const urls = oldEngine() ? [legacyScript] : list.content.split(' ').concat(screen ? screen.split(' ') : []);
  // A browser without modulepreload (Safari before 17) is given each as a module script instead:
  // fetched at once all the same, and only run as the modules importing it are.
  const preloads = document.createElement('link').relList.supports('modulepreload');
  urls.forEach((url, index) => {
    if (index === 0 || !preloads) {
      const script = document.createElement('script');
      script.type = 'module';
      script.src = url;
      add(script);
    } else {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = url;
      add(link);
    }
  });
}
function add(tag: HTMLScriptElement | HTMLLinkElement): void {
  tag.crossOrigin = '';
  document.head.append(tag);
}

// A link within the page (the hero's "了解功能", the skip link) scrolls there, as the script's
// own handlers do, rather than putting its name in the address, where the router would take it
// for a route.
document.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? event.target.closest('a[href^="#"]') : null;
  const href = (link && link.getAttribute('href')) || '';
  if (running() || href.charAt(1) === '/' || href.length < 2) return;
  const target = document.getElementById(href.slice(1));
  if (!target) return;
  event.preventDefault();
  // The skip link's target takes focus too; an element that cannot take it ignores this.
  target.focus({ preventScroll: true });
  target.scrollIntoView({ behavior: 'smooth' });
});
// A route followed before the script runs (a row of the early list, 4. below) is the script's
// to show: it starts at once rather than after the list's paint. Once anything has failed on the
// page (the entry refused, or throwing or not parsing: error events, caught on their way down), the
// script may never run, so the page is loaded again, which draws that route's frame itself
// (docs/site.md#the-oldest-browsers-served).
let failed = false;
addEventListener('error', () => (failed = true), true);
addEventListener('hashchange', () => {
  if (running()) return;
  if (failed) location.reload();
  else start();
});
// A language chosen before the script runs is kept as the script's own switcher keeps it
// (src/lib/i18n.ts), and the script starts at once: it then renders in that language, over a
// `?lang=` in the address (initLanguage reads data-early-language).
document.addEventListener('change', (event) => {
  const target = event.target as HTMLSelectElement | null;
  if (running() || !target || target.tagName !== 'SELECT' || !target.closest('header')) return;
  root.setAttribute(earlyLanguageAttribute, target.value);
  rememberLanguage(target.value);
  root.classList.add(prerenderOffClass);
  start();
});

// 3. Asks the API early, before the script runs, the calls its first screen starts with (as
//    src/lib/api-bootstrap/init-api.ts makes them): the ping of the address it will try
//    first; when that is one address and it answers 200, the app config and the screen's data
//    (the call the build named on its frame) together. The script asks the data only once it has
//    the config, which it needs to show the data, not to ask for it: each is a round trip, over
//    half a second on a slow phone network. It stops as soon as the script runs, which then asks
//    for itself. src/lib/http.ts takes an answer from here when it makes the same call.
const answers: EarlyAnswers['answers'] = {};
// Settles once the screen is drawn from the early answers, or will not be.
let drawn: Promise<void> | undefined;
function ask(url: string, cache: RequestCache): Promise<Response> | undefined {
  if (running()) return undefined;
  const controller = new AbortController();
  const answer = fetchApi(url, controller.signal, cache);
  // A failure is the script's to see, when it takes the answer; until then it is no error.
  answer.catch(() => undefined);
  answers[url] = { answer, controller };
  return answer;
}
// Only the announcements list on a phone, whose drawing by src/early-list.ts is the screen's
// largest paint, asks now. The download screen's largest paint is in its frame, as is the list
// whose first rows the server wrote there (server/src/page/early-rows.ts): they ask once that is
// painted (go); a screen whole without the API (the tutorial, the changelog) once its pictures
// are in and it has painted, with the script (start). Asked before, the answers were in before
// that paint, and Lighthouse's simulated phone counted them as requests it waited for
// (docs/performance.md#the-largest-paint-of-each-screen). Written rows need no drawing: the
// script takes over from them as from a drawn list (src/main.tsx).
const written = shown && app.querySelector(`[elementtiming="${earlyListTiming}"]`) !== null;
if (written) root.setAttribute(earlyListAttribute, path);
const drawer = shown && !written && frame && frame.getAttribute(earlyScriptAttribute);
const wide = matchMedia(wideQuery).matches;
const rows = app.querySelector(`template[${earlyRowsAttribute}]`);
let asked = false;
function askEarly(): void {
  if (asked) return;
  asked = true;
  try {
    const configured = readSiteConfig().apiAddrs;
    const last = lastApiAddr();
    // The landing page is whole without the API: its first paint does not share the network.
    const addrs = path === '/' ? [] : last ? [last] : knownApiAddrs(configured);
    const data = frame && frame.getAttribute(earlyCallAttribute);
    const early: EarlyAnswers = { at: Date.now(), answers };
    setEarlyAnswers(early);
    for (const addr of addrs) {
      const ping = ask(apiUrl(addr, apiCalls.ping), 'no-store');
      if (addrs.length > 1 || !ping) continue;
      early.data = ping.then((response) => {
        if (response.status !== 200) return null;
        void ask(apiUrl(addr, apiCalls.appConfig), 'no-cache');
        return (data && ask(apiUrl(addr, data), 'no-cache')) || null;
      });
      early.data.catch(() => undefined);
    }
    // 4. The screen's list or cards, drawn from the early answers by a script of its own
    //    (src/early-list.ts, src/early-download.ts), which says when it is done. On a wider screen
    //    the announcements list waits for the script, beside the detail pane.
    if (drawer && !(rows && wide)) {
      const script = document.createElement('script');
      script.src = drawer;
      drawn = new Promise<void>((resolve) => {
        early.drawn = script.onerror = () => resolve();
      });
      document.head.append(script);
    }
  } catch {
    // No settings on the page (a development server), or storage in a shape the script will
    // mend: the script asks for itself.
  }
}
if (drawer && rows && !wide) askEarly();

// With a screen to draw, the script is fetched and run once it is on screen (or will not be),
// 3 s after the paint at the latest. The drawing needs only its own answers, a few KB: on a slow
// link they would otherwise share the bandwidth with the script, ten times their size, and a
// script run before the drawing's paint would hold that paint up.
function go(): void {
  askEarly();
  if (!drawn) return start();
  void drawn.then(() => {
    if (!app.querySelector(`[elementtiming="${earlyListTiming}"]`)) return start();
    // Once the browser has shown the first title (Element Timing).
    whenPainted('element', 'text-paint', start);
  });
  setTimeout(start, 3000);
}

// Calls `then` once the browser reports the paint named `name` (of the entry type `type`);
// where it does not report such paints, after the next frame. An observer's `buffered` flag,
// which replays a paint already made, came in Chromium 77: 73 to 76 observe paints but ignore
// it, so a paint made before this runs (the first one, before the load event) is read from the
// timeline instead (docs/site.md#the-oldest-browsers-served).
function whenPainted(type: string, name: string, then: () => void): void {
  const later = () => setTimeout(then, 0);
  if (!((window.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || []).includes(type)) {
    requestAnimationFrame(later);
    return;
  }
  if (performance.getEntriesByName(name).length > 0) {
    later();
    return;
  }
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName(name).length === 0) return;
    observer.disconnect();
    later();
  }).observe({ type, buffered: true });
}

// After the first contentful paint. A hidden tab paints nothing: it starts at once.
function afterPaint(): void {
  if (document.visibilityState === 'hidden') return start();
  whenPainted('paint', 'first-contentful-paint', go);
}
if (!shown) start();
else if (drawer || document.readyState === 'complete') afterPaint();
else addEventListener('load', afterPaint);
