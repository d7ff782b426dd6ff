import { formatDate, type Bulletin } from '@chat-site/contract';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import { Notice } from '../../../components/ui/status';
import { cn } from '../../../lib/cn';
import { currentLanguage, t } from '../../../lib/i18n';
import { Icon, iconPaths } from '../../../components/ui/icon';
import { fieldMark } from '../../../lib/page-marks';

/** The announcements feed the server publishes beside the site. */
const feedPath = '/feed.atom';

/** A title's row: the open announcement's tinted (its own hover a shade darker), the others
 * tinted on hover only. */
export const rowClass = (selected: boolean) =>
  cn(
    'block rounded-2xl px-3 py-3 transition-colors',
    selected ? 'bg-brand/15 text-fg ring-1 ring-brand/40 hover:bg-brand/20' : 'hover:bg-surface-2',
  );

/** The titles, under a heading with the feed link and a chevron that folds the list away (open
 * by default). */
// Each row's parts are named (fieldMark) for src/early-list.ts, which draws the list from a
// prerendered copy of two rows before this script runs (src/app/prerender.tsx).
export function AnnouncementList({
  items,
  selectedId,
  hrefOf,
}: {
  items: Bulletin[];
  selectedId: string | undefined;
  hrefOf: (id: string) => string;
}) {
  const [expanded, setExpanded] = useState(true);
  const listId = useId();
  return (
    <section aria-labelledby={`${listId}-title`} className="rounded-3xl border border-line bg-surface">
      <div className="flex items-center justify-between px-5 py-4">
        <h1 id={`${listId}-title`} className="text-lg font-semibold">
          {t('announcements.heading')}
        </h1>
        <a
          href={feedPath}
          type="application/atom+xml"
          aria-label={t('announcements.feed')}
          title={t('announcements.feed')}
          className="ml-auto grid size-9 place-items-center rounded-full text-muted hover:bg-surface-2 hover:text-fg"
        >
          <Icon path={iconPaths.rss} />
        </a>
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-label={t('announcements.toggleList')}
          onClick={() => setExpanded((open) => !open)}
          className="grid size-9 place-items-center rounded-full text-muted hover:bg-surface-2 hover:text-fg"
        >
          <Icon path={iconPaths.chevronDown} className={cn('transition-transform', !expanded && '-rotate-90')} />
        </button>
      </div>
      {/* The navigation is the titles alone; the feed link and the chevron belong to the section. */}
      <nav id={listId} aria-labelledby={`${listId}-title`} hidden={!expanded} className="border-t border-line">
        {items.length === 0 ? (
          <Notice compact>{t('announcements.empty')}</Notice>
        ) : (
          <ul className="max-h-none overflow-y-auto p-2 md:max-h-[calc(100dvh-14rem)]">
            {items.map((item) => {
              const selected = item.id === selectedId;
              return (
                <li key={item.id}>
                  <Link
                    href={hrefOf(item.id)}
                    aria-current={selected ? 'true' : undefined}
                    className={rowClass(selected)}
                  >
                    <span className="flex items-start gap-2">
                      {item.pinned && (
                        <span
                          {...fieldMark('pinned')}
                          className="mt-0.5 shrink-0 rounded bg-brand/20 px-1.5 text-xs leading-5 text-brand-ink"
                        >
                          {t('announcements.pinned')}
                        </span>
                      )}
                      <span {...fieldMark('title')} className="line-clamp-2 text-[15px] leading-6">
                        {item.title}
                      </span>
                    </span>
                    <span {...fieldMark('date')} className="mt-1 block text-xs text-muted tabular-nums">
                      {formatDate(item.createdAt, currentLanguage())}
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </nav>
    </section>
  );
}
