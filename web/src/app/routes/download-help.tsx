import { ScrollToTop } from '../../components/layout/scroll-to-top';
import { mainContentId } from '../../components/layout/skip-link';
import { InAppGuide } from '../../features/downloads/in-app-guide/in-app-guide';
import { Tutorial } from '../../features/tutorial/components/tutorial';

/** The iOS tutorial has no header (docs/site.md#screens-and-routes). Inside a chat app's
 * browser its steps answer with the download screen's guide (docs/site.md#in-app-browsers). */
export default function DownloadHelpRoute() {
  return (
    <>
      <main id={mainContentId} tabIndex={-1} className="outline-none">
        <Tutorial />
      </main>
      <InAppGuide />
      <ScrollToTop />
    </>
  );
}
