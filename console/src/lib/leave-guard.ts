import { useEffect, useSyncExternalStore } from 'react';

/** Whether a screen holds edits not yet saved; the frame asks before its navigation leaves
 * them (docs/console.md#leaving-with-unsaved-edits). One screen is open at a time. */
let unsaved = false;

export const hasUnsavedEdits = () => unsaved;

/** Marks the screen's edits unsaved while `active`: the console's own navigation and the
 * browser's Back and Forward ask first, and closing or reloading the tab brings the browser's
 * own prompt. */
export function useLeaveGuard(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    unsaved = true;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => {
      unsaved = false;
      window.removeEventListener('beforeunload', warn);
    };
  }, [active]);
}

/** The step that would leave unsaved edits, held until the operator answers; the latest one
 * asked for (a click, then Back, goes back). */
let held: (() => void) | undefined;
const listeners = new Set<() => void>();
const tell = () => listeners.forEach((listener) => listener());
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function holdLeaving(step: () => void): void {
  held = step;
  tell();
}

/** Answers the held step: true takes it, false stays with the edits. */
export function answerLeaving(leave: boolean): void {
  const step = held;
  held = undefined;
  tell();
  if (leave) step?.();
}

/** Whether a step is held, waiting for the operator's answer. */
export const useLeavingHeld = (): boolean => useSyncExternalStore(subscribe, () => held !== undefined);
