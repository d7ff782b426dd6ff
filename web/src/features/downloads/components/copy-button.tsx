import { useEffect, useState } from 'react';
import { cn } from '../../../lib/cn';
import { t } from '../../../lib/i18n';
import { copyText } from '../copy-text';

/** Also the size of the place PackageDetailsPlaceholder keeps for it. */
export const copyButtonClass =
  'rounded-full border border-line px-2.5 py-0.5 text-xs text-fg transition hover:bg-surface-2';

type CopyState = 'idle' | 'copied' | 'failed';

/** Copies `text` and says so next to the button for a moment; when copying is refused, says
 * that instead and selects `selectOnFailure` so the visitor can copy it by hand. */
export function CopyButton({
  text,
  label,
  selectOnFailure,
}: {
  text: string;
  label: string;
  selectOnFailure?: () => HTMLElement | null;
}) {
  const [state, setState] = useState<CopyState>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = window.setTimeout(() => setState('idle'), 2500);
    return () => window.clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    const copied = await copyText(text);
    setState(copied ? 'copied' : 'failed');
    const target = copied ? null : (selectOnFailure?.() ?? null);
    if (target !== null) window.getSelection()?.selectAllChildren(target);
  };

  return (
    <span className="inline-flex items-center gap-2">
      <button type="button" onClick={() => void copy()} aria-label={label} className={copyButtonClass}>
        {t('download.copy')}
      </button>
      <span role="status" className={cn('text-xs', state === 'failed' ? 'text-danger' : 'text-brand')}>
        {state === 'copied' ? t('download.copied') : state === 'failed' ? t('download.copyFailed') : ''}
      </span>
    </span>
  );
}
