import { formatDate, resolveImageSrc, type Bulletin } from '@chat-site/contract';
import { useMemo } from 'react';
import { useApi } from '../../../lib/api-bootstrap/api-provider';
import { Notice } from '../../../components/ui/status';
import { currentLanguage, t } from '../../../lib/i18n';
import { sanitizeBulletinHtml } from '../../../lib/sanitize';
import { readString, storageKeys } from '../../../lib/storage';
import { ShareButton } from './share-button';

/** Title, publish date, share button and the cleaned HTML body of one announcement. */
export function AnnouncementArticle({ bulletin }: { bulletin: Bulletin }) {
  const api = useApi();
  const html = useMemo(() => {
    // Offline (a saved copy, no address answering) the pictures are still asked of the address
    // the copy came from, the last one that answered: the browser may have them cached.
    const live = api.status === 'ready' ? api.apiAddr : null;
    const apiAddr = live ?? readString(storageKeys.lastApiAddr);
    const cdn = api.status === 'ready' ? api.cdn : { useCdn: false, bucketUrl: '' };
    return sanitizeBulletinHtml(bulletin.content, (src) => resolveImageSrc(src, { apiAddr, cdn }));
  }, [bulletin.content, api]);
  return (
    <article className="mx-auto w-full max-w-[600px]">
      <h1 className="text-xl leading-snug font-bold md:text-2xl">{bulletin.title}</h1>
      <div className="mt-2 flex items-start justify-between gap-4">
        <p className="py-1.5 text-sm text-muted">
          {t('announcements.publishDate', { date: formatDate(bulletin.createdAt, currentLanguage()) })}
        </p>
        <ShareButton key={bulletin.id} id={bulletin.id} title={bulletin.title} />
      </div>
      {/* An English reader is told when the operator wrote no English (docs/site.md#announcements-in-the-visitors-language). */}
      {currentLanguage() === 'en' && bulletin.language !== 'en' && (
        <p className="mt-1 text-sm text-muted">{t('announcements.inChinese')}</p>
      )}
      <hr className="my-5 border-line" />
      {html.trim() === '' ? (
        <Notice>{t('announcements.emptyBody')}</Notice>
      ) : (
        <div className="prose-bulletin" dangerouslySetInnerHTML={{ __html: html }} />
      )}
    </article>
  );
}
