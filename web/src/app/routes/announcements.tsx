import { useParams } from 'wouter';
import { PageShell } from '../page-shell';
import { AnnouncementsScreen } from '../../features/announcements/components/announcements-screen';

export default function AnnouncementsRoute() {
  const { id } = useParams<{ id?: string }>();
  return (
    <PageShell footer={false} scrollToTop={false}>
      <AnnouncementsScreen routeId={id} />
    </PageShell>
  );
}
