import { t } from '../../lib/i18n';

export const mainContentId = 'main';

/** Moves focus to the page's main content. A plain #main href would change the hash route. */
export function SkipLink() {
  return (
    <a
      href={`#${mainContentId}`}
      onClick={(event) => {
        event.preventDefault();
        document.getElementById(mainContentId)?.focus();
      }}
      className="sr-only rounded-md bg-brand px-4 py-2 text-brand-fg focus:not-sr-only focus:absolute focus:start-4 focus:top-3 focus:z-50"
    >
      {t('a11y.skipToContent')}
    </a>
  );
}
