import { Link, useParams } from 'wouter';
import { PageShell } from '../../components/layout/page-shell';
import { paths } from '../../config/paths';
import { AnnouncementDetail } from '../../features/announcements/components/announcement-detail';
import { t } from '../../lib/i18n';

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
          <svg
            viewBox="0 0 24 24"
            className="size-5"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            aria-hidden="true"
          >
            <path d="M19 12H5m7 7-7-7 7-7" />
          </svg>
        </Link>
        <AnnouncementDetail id={decodeURIComponent(id)} />
      </div>
    </PageShell>
  );
}
