import type { ReactNode } from 'react';
import { useHydrated } from '../../lib/hydrated';
import { Footer } from './footer';
import { Header } from './header';
import { ScrollToTop } from './scroll-to-top';
import { mainContentId } from './skip-link';

/** What the routes of docs/behaviour.md#screens-and-routes share: header, content, and (on the
 * routes that have them) footer and scroll-to-top button. */
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
        <Header />
        <main id={mainContentId} tabIndex={-1} className="flex-1 outline-none">
          {children}
        </main>
      </div>
      {footer && hydrated && <Footer />}
      {scrollToTop && <ScrollToTop />}
    </>
  );
}
