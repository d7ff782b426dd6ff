import { useEffect } from 'react';

/** Whether a screen holds edits not yet saved; the frame asks before its navigation leaves
 * them (docs/console.md#leaving-with-unsaved-edits). One screen is open at a time. */
let unsaved = false;

export const hasUnsavedEdits = () => unsaved;

/** Marks the screen's edits unsaved while `active`: the console's own navigation asks first,
 * and closing or reloading the tab brings the browser's own prompt. */
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
