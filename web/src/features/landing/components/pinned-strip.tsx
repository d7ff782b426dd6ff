import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Link } from 'wouter';
import { paths } from '../../../config/paths';
import { useApi } from '../../../lib/api-bootstrap/api-provider';
import { logFailure } from '../../../lib/http';
import { t, useLanguage } from '../../../lib/i18n';
import { useAsync } from '../../../lib/use-async';
import { getPinnedAnnouncements } from '../api/get-pinned-announcements';

const loadCarousel = () => import('./pinned-carousel');
const PinnedCarousel = lazy(loadCarousel);

/**
 * The pinned announcements under the hero. Until they arrive the strip's place is kept empty, so
 * the features below do not jump down when it appears. A failed fetch or no pinned announcement
 * shows nothing; a failure is only logged.
 */
export function PinnedStrip() {
  const api = useApi();
  const apiAddr = api.status === 'ready' ? api.apiAddr : null;
  const language = useLanguage();
  // The carousel's code loads while the API answers, not after.
  useEffect(() => void loadCarousel().catch(() => undefined), []);
  const state = useAsync(
    apiAddr === null
      ? null
      : () =>
          getPinnedAnnouncements(apiAddr, language).catch((error: unknown) => {
            logFailure('pinned announcements', error);
            return [];
          }),
    `${apiAddr ?? ''}:${language}`,
  );
  const waiting = api.status === 'loading' || (apiAddr !== null && state.status !== 'success');
  if (waiting) return <StripFrame placeholder />;
  if (state.status !== 'success' || state.data.length === 0) return null;
  // Until the carousel's code is here too, the place stays reserved and empty.
  return (
    <Suspense fallback={<StripFrame placeholder />}>
      <StripFrame>
        <PinnedCarousel items={state.data} />
      </StripFrame>
    </Suspense>
  );
}

/** The strip's box; as a placeholder it keeps the same size, invisible and silent. */
function StripFrame({ children, placeholder = false }: { children?: ReactNode; placeholder?: boolean }) {
  const box = (
    <div className="flex items-center gap-2 rounded-2xl border border-line bg-surface px-3 py-2 shadow-sm sm:gap-4 sm:px-5 sm:py-3">
      <span className="shrink-0 rounded-full bg-brand/15 px-2 py-0.5 text-xs font-medium text-brand-ink sm:px-3 sm:py-1 sm:text-sm">
        {t('pinned.label')}
      </span>
      {children ?? <div className="h-6 min-w-0 flex-1 sm:h-7" />}
      {!placeholder && (
        <Link href={paths.announcements} className="shrink-0 text-xs text-muted hover:text-fg sm:text-sm">
          {t('pinned.more')}
        </Link>
      )}
    </div>
  );
  return placeholder ? (
    <div aria-hidden="true" className="invisible mx-auto max-w-3xl px-4" data-pinned-placeholder="">
      {box}
    </div>
  ) : (
    <section aria-label={t('pinned.label')} className="mx-auto max-w-3xl px-4">
      {box}
    </section>
  );
}
