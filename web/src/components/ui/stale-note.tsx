import { cn } from '../../lib/cn';
import { t } from '../../lib/i18n';
import { isStale } from '../../lib/last-good';

/** A quiet line over content that came from the copy saved on an earlier visit; nothing when
 * `data` came from the server. A status, so screen readers hear it once, without an alarm. */
export function StaleNote({ data, className }: { data: unknown; className?: string }) {
  if (!isStale(data)) return null;
  return (
    <p
      role="status"
      data-testid="stale-note"
      className={cn('rounded-xl border border-line bg-surface-2/60 px-3 py-2 text-xs text-muted', className)}
    >
      {t('offline.stale')}
    </p>
  );
}
