import type { ReactNode } from 'react';

export const inputClass =
  'block w-full min-h-10 rounded-lg border border-line bg-surface px-3 py-2 text-sm text-fg placeholder:text-muted focus-visible:outline-2 focus-visible:outline-ring aria-[invalid=true]:border-danger';

/** A control's ties to the problem its Field says under it (`${id}-error`), for screen readers. */
export const problemMarks = (controlId: string, error: string | undefined) => ({
  'aria-invalid': error !== undefined,
  ...(error !== undefined && { 'aria-describedby': `${controlId}-error` }),
});

/** A label above its control, with an optional hint and error below, tied by id for readers. */
export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children}
      {hint !== undefined && (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      )}
      {error !== undefined && (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
