import { ScrollToTop } from '../../components/layout/scroll-to-top';
import { mainContentId } from '../../components/layout/skip-link';
import { Tutorial } from '../../features/tutorial/components/tutorial';

/** The iOS tutorial has no header (docs/behaviour.md#screens-and-routes). */
export default function DownloadHelpRoute() {
  return (
    <>
      <main id={mainContentId} tabIndex={-1} className="outline-none">
        <Tutorial />
      </main>
      <ScrollToTop />
    </>
  );
}
