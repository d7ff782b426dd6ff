import { formatMonthDay, type Bulletin } from '@chat-site/contract';
import Autoplay from 'embla-carousel-autoplay';
import useEmblaCarousel from 'embla-carousel-react';
import { Link } from 'wouter';
import { carouselDelayMs } from '../../../config/constants';
import { paths } from '../../../config/paths';
import { useApi } from '../../api-bootstrap/api-provider';
import { logFailure } from '../../../lib/http';
import { t } from '../../../lib/i18n';
import { useAsync } from '../../../lib/use-async';
import { getPinnedAnnouncements } from '../api/get-pinned-announcements';

/** The pinned announcements under the hero. A failed fetch shows nothing; it is only logged. */
export function PinnedStrip() {
  const api = useApi();
  const apiAddr = api.status === 'ready' ? api.apiAddr : null;
  const state = useAsync(
    apiAddr === null
      ? null
      : () =>
          getPinnedAnnouncements(apiAddr).catch((error: unknown) => {
            logFailure('pinned announcements', error);
            return [];
          }),
    apiAddr ?? '',
  );
  if (state.status !== 'success' || state.data.length === 0) return null;
  return (
    <section aria-label={t('pinned.label')} className="mx-auto max-w-3xl px-4">
      <div className="flex items-center gap-2 rounded-2xl border border-line bg-surface px-3 py-2 shadow-sm sm:gap-4 sm:px-5 sm:py-3">
        <span className="shrink-0 rounded-full bg-brand/15 px-2 py-0.5 text-xs font-medium text-brand sm:px-3 sm:py-1 sm:text-sm">
          {t('pinned.label')}
        </span>
        <PinnedCarousel items={state.data} />
        <Link href={paths.announcements} className="shrink-0 text-xs text-muted hover:text-fg sm:text-sm">
          {t('pinned.more')}
        </Link>
      </div>
    </section>
  );
}

/** Vertical, looping, every 3 s when there is more than one; swiping does not stop it. */
function PinnedCarousel({ items }: { items: Bulletin[] }) {
  const moving = items.length > 1;
  const [viewport] = useEmblaCarousel(
    { axis: 'y', loop: moving, active: moving, dragThreshold: 5 },
    moving ? [Autoplay({ delay: carouselDelayMs, stopOnInteraction: false })] : [],
  );
  return (
    <div ref={viewport} className="h-6 min-w-0 flex-1 overflow-hidden sm:h-7">
      <ul className="flex h-full flex-col">
        {items.map((item) => (
          <li key={item.id} className="min-h-0 shrink-0 grow-0 basis-full">
            <Link
              href={paths.announcement(item.id)}
              className="flex h-full items-center gap-3 text-sm hover:text-brand sm:text-[15px]"
            >
              <span className="min-w-0 flex-1 truncate">{item.title}</span>
              <time
                dateTime={item.createdAt.slice(0, 10)}
                className="shrink-0 text-xs text-muted tabular-nums sm:text-sm"
              >
                {formatMonthDay(item.createdAt)}
              </time>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
