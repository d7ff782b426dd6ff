import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadRoute } from './app/app';
import { applyTheme, storedTheme } from './features/theme/theme';
import { LanguageRoot } from './features/language/language-root';
import { initLanguage } from './lib/i18n';
import { registerServiceWorker } from './lib/service-worker';
import './styles.css';

applyTheme(storedTheme());

const root = document.getElementById('root');
if (root === null) throw new Error('the page has no #root element');
preloadRoute(window.location.hash.replace(/^#/, '').split('?')[0] ?? '');
// A visitor whose language is not the default waits for its catalog rather than seeing the
// default flash first.
void initLanguage().then(() =>
  createRoot(root).render(
    <StrictMode>
      <LanguageRoot app={App} />
    </StrictMode>,
  ),
);
if (import.meta.env.PROD) registerServiceWorker();
