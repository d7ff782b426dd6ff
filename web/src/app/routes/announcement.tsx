import { Link, useParams } from 'wouter';
import { PageShell } from '../page-shell';
import { paths } from '../../config/paths';
import { AnnouncementDetail } from '../../features/announcements/components/announcement-detail';
import { t } from '../../lib/i18n';
import { Icon, iconPaths } from '../../components/ui/icon';

export default function AnnouncementRoute() {
  const { id = '' } = useParams<{ id: string }>();
  return (
    <PageShell footer={false}>
      <div className="mx-auto max-w-[600px] px-4 py-6 md:py-10">
        <Link
          href={paths.announcements}
          aria-label={t('announcements.back')}
          className="mb-6 inline-flex size-10 items-center justify-center rounded-full border border-line text-fg hover:bg-surface-2"
        >
          <Icon path={iconPaths.arrowLeft} />
        </Link>
        <AnnouncementDetail id={decodeURIComponent(id)} />
      </div>
    </PageShell>
  );
}
