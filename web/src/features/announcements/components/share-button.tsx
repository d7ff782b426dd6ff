import { defaultLanguage, type Language } from '@chat-site/contract';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Icon, iconPaths } from '../../../components/ui/icon';
import { t, useLanguage } from '../../../lib/i18n';
import { useMediaQuery } from '../../../lib/use-media-query';

type Outcome = 'idle' | 'copied' | 'manual';

/** How long "copied" stays on screen. */
const copiedFeedbackMs = 2_500;

/** The announcement's share address: a page the server renders for link previewers, which
 * sends a browser on to the announcement in the site. Hash routes are invisible to previewers.
 * In the visitor's language, as the share page's own canonical address names it: `?lang=`, none
 * for simplified Chinese (docs/reach.md#languages-of-share-pages-and-feeds). */
export const shareAddress = (id: string, language: Language) =>
  `${window.location.origin}/a/${encodeURIComponent(id)}${language === defaultLanguage ? '' : `?lang=${language}`}`;

/** On a phone, the system share sheet; elsewhere (or when it is missing), the address is copied
 * with visible feedback, or shown selected for copying by hand when the clipboard refuses.
 * Keyed by the announcement, so that feedback never outlives it. */
export function ShareButton({ id, title }: { id: string; title: string }) {
  const [outcome, setOutcome] = useState<Outcome>('idle');
  const phone = useMediaQuery('(pointer: coarse)');
  const url = shareAddress(id, useLanguage());

  useEffect(() => {
    if (outcome !== 'copied') return;
    const timer = setTimeout(() => setOutcome('idle'), copiedFeedbackMs);
    return () => clearTimeout(timer);
  }, [outcome]);

  async function share() {
    if (phone && typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, url });
        return;
      } catch (error) {
        // The visitor closed the sheet: nothing to do. Any other failure falls back to copying.
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      setOutcome('copied');
    } catch {
      setOutcome('manual');
    }
  }

  return (
    <div className="flex flex-col items-end gap-2">
      <Button variant="secondary" size="sm" onClick={() => void share()}>
        <Icon path={iconPaths.share} size="sm" />
        {t('announcements.share')}
      </Button>
      <p role="status" className="text-xs text-muted empty:hidden">
        {outcome === 'copied'
          ? t('announcements.linkCopied')
          : outcome === 'manual'
            ? t('announcements.copyManually')
            : ''}
      </p>
      {outcome === 'manual' && (
        <input
          readOnly
          value={url}
          aria-label={t('announcements.shareLink')}
          ref={(input) => input?.select()}
          onFocus={(event) => event.currentTarget.select()}
          className="w-64 max-w-full rounded-lg border border-line bg-surface-2 px-2 py-1 text-xs"
        />
      )}
    </div>
  );
}
