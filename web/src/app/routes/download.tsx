import { useSearch } from 'wouter';
import { PageShell } from '../page-shell';
import { DownloadSection } from '../../features/downloads/components/download-section';
import { platformFromParam } from '../../lib/platform';

/** `#/download?os=ios` shows that platform first, whatever the device says. */
export default function DownloadRoute() {
  const requested = platformFromParam(new URLSearchParams(useSearch()).get('os'));
  return (
    <PageShell>
      <DownloadSection requested={requested} />
    </PageShell>
  );
}
