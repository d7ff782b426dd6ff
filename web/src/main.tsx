import { startTransition, StrictMode, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, preloadRoute } from './app/app';
import { applyTheme, storedTheme } from './features/theme/theme';
import { LanguageRoot } from './features/language/language-root';
import { beginHydration } from './lib/hydrated';
import { currentLanguage, defaultLanguage, initLanguage } from './lib/i18n';
import { registerServiceWorker } from './lib/service-worker';
import './styles.css';

applyTheme(storedTheme());
// From here on the header's language switcher is this script's to answer (src/boot-route.js
// answers it until then).
document.documentElement.setAttribute('data-running', '');

const root = document.getElementById('root');
if (root === null) throw new Error('the page has no #root element');
const hashPath = () => window.location.hash.replace(/^#/, '').split('?')[0] ?? '';
preloadRoute(hashPath());

/** Marks the page once the first render is on screen (hydrated or rendered over the frame). */
function Rendered() {
  useEffect(() => document.documentElement.setAttribute('data-rendered', ''), []);
  return null;
}

// A visitor whose language is not the default waits for its catalog rather than seeing the
// default flash first.
void initLanguage().then(() => {
  const app = (
    <>
      <LanguageRoot app={App} />
      <Rendered />
    </>
  );
  // The prerendered landing page (src/app/prerender.tsx) is on screen when src/boot-route.js
  // left it there and the visitor has not left it since: React then adopts its nodes rather than
  // building them again. Another route's prerendered frame is rendered over. Either way the
  // first render is a transition, which React splits into short tasks.
  const adopt =
    root.firstElementChild?.getAttribute('data-prerender') === '/' &&
    !document.documentElement.classList.contains('prerender-off') &&
    ['', '/'].includes(hashPath()) &&
    currentLanguage() === defaultLanguage;
  startTransition(() => {
    if (adopt) {
      beginHydration();
      hydrateRoot(
        root,
        <StrictMode>
          <div data-prerender="/">{app}</div>
        </StrictMode>,
      );
    } else createRoot(root).render(<StrictMode>{app}</StrictMode>);
  });
});
if (import.meta.env.PROD) registerServiceWorker();
