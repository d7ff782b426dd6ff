import { useEffect, useRef } from 'react';

/** The editor's text kept in this browser while the operator types, so a crash, a closed tab or
 * a lost session does not lose it (docs/console.md#unsaved-text-kept-in-the-browser). */
export interface Kept<T> {
  value: T;
  /** When it was kept (ms since the epoch, this browser's clock). */
  at: number;
}

const prefix = 'console.bulletin-draft.';
const keyOf = (id: number | undefined) => `${prefix}${id ?? 'new'}`;
const debounceMs = 2_000;

export function readKept<T>(id: number | undefined): Kept<T> | undefined {
  try {
    const text = localStorage.getItem(keyOf(id));
    return text === null ? undefined : (JSON.parse(text) as Kept<T>);
  } catch {
    return undefined;
  }
}

function clearKept(id: number | undefined): void {
  try {
    localStorage.removeItem(keyOf(id));
  } catch {
    // Storage refused (private mode, full): nothing was kept either.
  }
}

function keep<T>(id: number | undefined, value: T): void {
  try {
    localStorage.setItem(keyOf(id), JSON.stringify({ value, at: Date.now() } satisfies Kept<T>));
  } catch {
    // Storage refused: the server's copy and the leave prompt are all there is.
  }
}

/** Keeps `value` a moment after the last edit, and at once when the page is hidden or closed or
 * the editor leaves, as long as there are unsaved edits. Answers `forget`, for a save: what was
 * kept goes, and nothing is kept as the editor closes. */
export function useAutosave<T>(id: number | undefined, value: T, dirty: boolean): () => void {
  const latest = useRef({ value, dirty });
  useEffect(() => {
    latest.current = { value, dirty };
  });
  useEffect(() => {
    if (!dirty) return;
    const timer = setTimeout(() => keep(id, value), debounceMs);
    return () => clearTimeout(timer);
  }, [id, value, dirty]);
  useEffect(() => {
    const now = () => {
      if (latest.current.dirty) keep(id, latest.current.value);
    };
    const hidden = () => document.visibilityState === 'hidden' && now();
    window.addEventListener('pagehide', now);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      window.removeEventListener('pagehide', now);
      document.removeEventListener('visibilitychange', hidden);
      now();
    };
  }, [id]);
  return () => {
    latest.current.dirty = false;
    clearKept(id);
  };
}
