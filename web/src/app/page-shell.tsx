import type { ReactNode } from 'react';
// The switchers come before the layout. In the other order the bundler moves what they share with
// the lazy screens (cn, Icon, the site config, the constants) out of the main chunk into two
// chunks of their own: two more requests and 0.5 KB more in the first load (npm run budget).
import { LanguageSwitcher } from '../features/language/language-switcher';
import { ThemeSwitcher } from '../features/theme/theme-switcher';
import { Footer } from '../components/layout/footer';
import { Header } from '../components/layout/header';
import { ScrollToTop } from '../components/layout/scroll-to-top';
import { mainContentId } from '../components/layout/skip-link';
import { useHydrated } from '../lib/hydrated';

/** What the routes of docs/behaviour.md#screens-and-routes share: header, content, and (on the
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
      {footer && hydrated && <Footer themeSwitcher={<ThemeSwitcher />} />}
      {scrollToTop && <ScrollToTop />}
    </>
  );
}
