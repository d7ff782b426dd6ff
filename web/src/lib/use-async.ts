import { startTransition, useEffect, useState } from 'react';

export type AsyncState<T> =
  { status: 'idle' } | { status: 'loading' } | { status: 'success'; data: T } | { status: 'error'; error: unknown };

/**
 * Runs `load` whenever `key` changes (and `load` is not null) and answers the latest result;
 * an answer for an older key is never shown. The screens need no more than this, so a query
 * library would be bytes without a benefit.
 */
export function useAsync<T>(load: (() => Promise<T>) | null, key: string): AsyncState<T> {
  const [settled, setSettled] = useState<{ key: string; state: AsyncState<T> } | null>(null);
  const idle = load === null;
  useEffect(() => {
    if (load === null) return;
    let current = true;
    // The answer's render is a transition: React splits it into short tasks.
    const settle = (state: AsyncState<T>) => {
      if (current) startTransition(() => setSettled({ key, state }));
    };
    load().then(
      (data) => settle({ status: 'success', data }),
      (error: unknown) => settle({ status: 'error', error }),
    );
    return () => {
      current = false;
    };
    // `key` stands for everything `load` depends on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, idle]);
  if (idle) return { status: 'idle' };
  if (settled === null || settled.key !== key) return { status: 'loading' };
  return settled.state;
}
