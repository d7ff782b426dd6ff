import { lazy, Suspense, useCallback, useEffect, useRef, type ComponentProps, type ReactNode } from 'react';
import { ErrorMessage, Loading, Notice } from '../../../components/ui/status';
import { detailScrollResetMs, wideQuery } from '../../../config/constants';
import { paths } from '../../../config/paths';
import { t, useLanguage } from '../../../lib/i18n';
import { useAsync } from '../../../lib/use-async';
import { useMediaQuery } from '../../../lib/use-media-query';
import { isStale } from '../../../lib/last-good';
import { useApi } from '../../../lib/api-bootstrap/api-provider';
import { AnnouncementListError, getAnnouncements } from '../api/get-announcements';
import { AnnouncementList } from './announcement-list';
import { StaleNote } from '../../../components/ui/stale-note';

// The detail pane shows from 768 px only, so its code (the HTML cleaner among it) is a chunk of
// its own: a phone never fetches it. A wider screen starts fetching it as soon as this screen's
// code runs, beside the list's API call, rather than once the list has rendered.
const loadDetail = () => import('./announcement-detail');
const AnnouncementDetail = lazy(() => loadDetail().then((module) => ({ default: module.AnnouncementDetail })));
if (typeof window !== 'undefined' && window.matchMedia(wideQuery).matches) loadDetail().catch(() => undefined);

/** List and detail side by side from 768 px; below it the list alone, and a tap opens the
 * single announcement view. */
export function AnnouncementsScreen({ routeId }: { routeId: string | undefined }) {
  const api = useApi();
  const apiAddr = api.status === 'ready' ? api.apiAddr : null;
  const wide = useMediaQuery(wideQuery);
  const language = useLanguage();
  const load = useCallback(() => getAnnouncements(apiAddr, language), [apiAddr, language]);
  const list = useAsync(api.status === 'ready' ? load : null, `${api.status}:${apiAddr ?? ''}:${language}`);
  const pane = useRef<HTMLDivElement>(null);
  const items = list.status === 'success' ? list.data : [];
  const selectedId = routeId ?? items[0]?.id;

  useEffect(() => {
    if (!wide || selectedId === undefined) return;
    const timer = setTimeout(() => pane.current?.scrollTo({ top: 0 }), detailScrollResetMs);
    return () => clearTimeout(timer);
  }, [wide, selectedId]);

  if (list.status === 'idle' || list.status === 'loading') return <Loading />;
  if (list.status === 'error') {
    const shape = list.error instanceof AnnouncementListError && list.error.kind === 'shape';
    return <ErrorMessage>{t(shape ? 'error.listShape' : 'error.list')}</ErrorMessage>;
  }
  return (
    <AnnouncementsColumns
      items={items}
      selectedId={selectedId}
      hrefOf={wide ? paths.announcementsItem : paths.announcement}
    >
      {wide && (
        <div
          ref={pane}
          data-testid="announcement-pane"
          className="sticky top-20 max-h-[calc(100dvh-6rem)] overflow-y-auto rounded-3xl border border-line bg-surface p-6 lg:p-10"
        >
          {selectedId === undefined ? (
            <Notice>{t('announcements.selectOne')}</Notice>
          ) : (
            <Suspense fallback={<Loading />}>
              <AnnouncementDetail id={selectedId} noteIfStale={!isStale(items)} />
            </Suspense>
          )}
        </div>
      )}
    </AnnouncementsColumns>
  );
}

/** The screen once its list is in: the list, with the detail pane (`children`) beside it from
 * 768 px. The build also prerenders it with two sample rows for src/boot-route.ts. */
export function AnnouncementsColumns({
  children,
  ...list
}: { children?: ReactNode } & ComponentProps<typeof AnnouncementList>) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-6 md:grid md:grid-cols-[320px_minmax(0,1fr)] md:items-start md:gap-6 md:px-6 md:py-10">
      <StaleNote data={list.items} className="mb-4 md:col-span-2" />
      <AnnouncementList {...list} />
      {children}
    </div>
  );
}
