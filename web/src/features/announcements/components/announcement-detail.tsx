import { useCallback } from 'react';
import { ErrorMessage, Loading, Notice } from '../../../components/ui/status';
import { t, useLanguage } from '../../../lib/i18n';
import { useAsync } from '../../../lib/use-async';
import { useApi } from '../../../lib/api-bootstrap/api-provider';
import { getAnnouncementDetail } from '../api/get-announcement-detail';
import { AnnouncementArticle } from './announcement-article';
import { StaleNote } from '../../../components/ui/stale-note';

/** Loads one announcement and renders each state it can be in. `noteIfStale` false leaves the
 * saved-copy note to a page that already shows one (the two-pane list's). */
export function AnnouncementDetail({ id, noteIfStale = true }: { id: string; noteIfStale?: boolean }) {
  const api = useApi();
  const apiAddr = api.status === 'ready' ? api.apiAddr : null;
  const language = useLanguage();
  const load = useCallback(() => getAnnouncementDetail(apiAddr, id, language), [apiAddr, id, language]);
  const state = useAsync(api.status === 'ready' ? load : null, `${api.status}:${apiAddr ?? ''}:${id}:${language}`);
  if (state.status === 'idle' || state.status === 'loading') return <Loading />;
  if (state.status === 'error') return <ErrorMessage>{t('error.detail')}</ErrorMessage>;
  if (state.data === null) return <Notice>{t('announcements.notFound')}</Notice>;
  return (
    <>
      {noteIfStale && <StaleNote data={state.data} className="mb-4" />}
      <AnnouncementArticle bulletin={state.data} />
    </>
  );
}
