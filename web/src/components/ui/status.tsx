import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { t } from '../../lib/i18n';
import { loadingMark } from '../../lib/page-marks';

/** The room a status message takes: a screen's worth (the default), or less inside a column. */
export const statusPadding = (compact = false) => (compact ? 'py-10' : 'py-16');

/** An error of docs/public-api.md#errors, shown in red in place of the page's content. */
export function ErrorMessage({ children, compact }: { children: ReactNode; compact?: boolean }) {
  return (
    <p role="alert" className={cn(statusPadding(compact), 'text-center text-base font-medium text-danger')}>
      {children}
    </p>
  );
}

/** A screen waiting for its data. src/main.tsx keeps a list drawn early on screen until React's
 * render of it has none of these left (data-loading). */
export function Loading({ compact }: { compact?: boolean }) {
  return (
    <p
      role="status"
      {...loadingMark}
      className={cn(statusPadding(compact), 'flex items-center justify-center gap-3 text-muted')}
    >
      <span className="size-4 animate-spin rounded-full border-2 border-line border-t-brand" aria-hidden="true" />
      {t('common.loading')}
    </p>
  );
}

/** A quiet message for an empty state. */
export function Notice({ children, compact }: { children: ReactNode; compact?: boolean }) {
  return <p className={cn(statusPadding(compact), 'text-center text-muted')}>{children}</p>;
}
