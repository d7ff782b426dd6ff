import { lazy, Suspense, type ReactNode } from 'react';
// The switcher comes before the layout. In the other order the bundler moves what it shares with
// the lazy screens (cn, Icon, the site config, the constants) out of the main chunk into chunks
// of their own: more requests and more bytes in the first load (npm run budget).
import { LanguageSwitcher } from '../features/language/language-switcher';
import { Header } from '../components/layout/header';
import { ScrollToTop } from '../components/layout/scroll-to-top';
import { mainContentId } from '../components/layout/skip-link';
import { useHydrated } from '../lib/hydrated';

// The footer shows only after hydration, below the fold: its code (with the theme switcher's)
// loads then, out of every route's first load (docs/performance.md#the-first-load-budget).
const PageFooter = lazy(() => import('./page-footer'));

/** What the routes of docs/site.md#screens-and-routes share: header, content, and (on the
 * routes that have them) footer and scroll-to-top button. It lives in the app, not in
 * components/layout, because it places the language and theme switchers, which are features. */
export function PageShell({
  children,
  footer = true,
  scrollToTop = true,
}: {
  children: ReactNode;
  footer?: boolean;
  scrollToTop?: boolean;
}) {
  const hydrated = useHydrated();
  // Header and content fill the screen at least, so the footer starts below the fold: content
  // that arrives late (cards' facts, an announcement's picture) moves nothing in view.
  return (
    <>
      <div className="flex min-h-dvh flex-col">
        <Header languageSwitcher={<LanguageSwitcher className="ms-2 md:ms-3" />} />
        <main id={mainContentId} tabIndex={-1} className="flex-1 outline-none">
          {children}
        </main>
      </div>
      {footer && hydrated && (
        <Suspense fallback={null}>
          <PageFooter />
        </Suspense>
      )}
      {scrollToTop && <ScrollToTop />}
    </>
  );
}
