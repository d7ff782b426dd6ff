import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { t } from '../../lib/i18n';
import { loadingMark } from '../../lib/page-marks';

/** An error of docs/behaviour.md#errors, shown in red in place of the page's content. */
export function ErrorMessage({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <p role="alert" className={cn('py-16 text-center text-base font-medium text-danger', className)}>
      {children}
    </p>
  );
}

/** A screen waiting for its data. src/main.tsx keeps a list drawn early on screen until React's
 * render of it has none of these left (data-loading). */
export function Loading({ className }: { className?: string }) {
  return (
    <p
      role="status"
      {...loadingMark}
      className={cn('flex items-center justify-center gap-3 py-16 text-muted', className)}
    >
      <span className="size-4 animate-spin rounded-full border-2 border-line border-t-brand" aria-hidden="true" />
      {t('common.loading')}
    </p>
  );
}

/** A quiet message for an empty state. */
export function Notice({ children, className }: { children: ReactNode; className?: string }) {
  return <p className={cn('py-16 text-center text-muted', className)}>{children}</p>;
}
