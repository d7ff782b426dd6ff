import { PageShell } from '../page-shell';
import { ChangelogScreen } from '../../features/changelog/components/changelog-screen';

export default function ChangelogRoute() {
  return (
    <PageShell>
      <ChangelogScreen />
    </PageShell>
  );
}
