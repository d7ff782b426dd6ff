import {
  earlyListAttribute,
  loadingAttribute,
  prerenderAttribute,
  prerenderOffClass,
  renderedAttribute,
  rootId,
  runningAttribute,
} from '@chat-site/contract';
import { startTransition, StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, preloadRoute } from './app/app';
import { applyTheme, storedTheme } from './features/theme/theme';
import { LanguageRoot } from './features/language/language-root';
import { beginHydration } from './lib/hydrated';
import { currentLanguage, defaultLanguage, initLanguage, languageOf } from './lib/i18n';
import { routePath } from './lib/route-path';
import { registerServiceWorker } from './lib/service-worker';
import './styles.css';
import { prerenderMark } from './lib/page-marks';

applyTheme(storedTheme());
// From here on the header's language switcher is this script's to answer (src/boot-route.ts
// answers it until then).
document.documentElement.setAttribute(runningAttribute, '');

// The language the server prerendered the page in, before initLanguage sets the visitor's.
const pageLanguage = languageOf(document.documentElement.lang) ?? defaultLanguage;
const root = document.getElementById(rootId);
if (root === null) throw new Error(`the page has no #${rootId} element`);
preloadRoute(routePath());

const markRendered = () => document.documentElement.setAttribute(renderedAttribute, '');
// False while React renders off the page, behind what was drawn from the early answers (renderBehind).
let onScreen = true;

/** Marks the page once the first render is on screen (hydrated or rendered over the frame). */
function Rendered() {
  useEffect(() => {
    if (onScreen) markRendered();
  }, []);
  return null;
}

/**
 * Renders the app off the page, into a copy of `root`, while what was drawn from the early
 * answers stays on screen (the announcements list, src/early-list.ts; the download cards,
 * src/early-download.ts): React's first renders show the screen loading until the data is its
 * own. The copy takes the root's place once nothing in it is loading (data-loading: Loading's
 * line, a download card's reserved facts), at a route change, or after 5 s at the latest. A
 * visitor who left the screen before the script ran gets the usual render over it.
 */
function renderBehind(root: HTMLElement, app: ReactNode) {
  const stage = root.cloneNode(false) as HTMLElement;
  onScreen = false;
  const show = () => {
    if (onScreen) return;
    onScreen = true;
    watcher.disconnect();
    clearTimeout(timer);
    window.removeEventListener('hashchange', show);
    root.replaceWith(stage);
    markRendered();
  };
  const watcher = new MutationObserver(() => {
    if (stage.firstElementChild !== null && stage.querySelector(`[${loadingAttribute}]`) === null) show();
  });
  watcher.observe(stage, { childList: true, subtree: true });
  const timer = setTimeout(show, 5000);
  window.addEventListener('hashchange', show);
  createRoot(stage).render(app);
}

// A visitor whose language is not the default waits for its catalog rather than seeing the
// default flash first. The first render starts in a task of its own, not in the one that ran
// this script's modules: on a slow phone the two together make one long task.
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
void Promise.all([initLanguage(), nextTask()]).then(() => {
  const app = (
    <>
      <LanguageRoot app={App} />
      <Rendered />
    </>
  );
  // The prerendered landing page (src/app/prerender.tsx) is on screen when src/boot-route.ts
  // left it there and the visitor has not left it since: React then adopts its nodes rather than
  // building them again. Another route's prerendered frame is rendered over. Either way the
  // first render is a transition, which React splits into short tasks.
  const adopt =
    root.firstElementChild?.getAttribute(prerenderAttribute) === '/' &&
    !document.documentElement.classList.contains(prerenderOffClass) &&
    routePath() === '/' &&
    currentLanguage() === pageLanguage;
  startTransition(() => {
    if (adopt) {
      beginHydration();
      hydrateRoot(
        root,
        <StrictMode>
          <div {...prerenderMark('/')}>{app}</div>
        </StrictMode>,
      );
    } else if (document.documentElement.getAttribute(earlyListAttribute) === routePath()) {
      renderBehind(root, <StrictMode>{app}</StrictMode>);
    } else createRoot(root).render(<StrictMode>{app}</StrictMode>);
  });
});
if (import.meta.env.PROD) registerServiceWorker();
