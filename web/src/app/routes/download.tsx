import { PageShell } from '../../components/layout/page-shell';
import { DownloadSection } from '../../features/downloads/components/download-section';

export default function DownloadRoute() {
  return (
    <PageShell>
      <DownloadSection />
    </PageShell>
  );
}
