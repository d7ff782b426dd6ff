import { useSyncExternalStore } from 'react';
import { hasUnsavedEdits, holdLeaving } from './leave-guard';

/**
 * The console's address, for wouter (docs/console.md#leaving-with-unsaved-edits): the
 * browser's, except that a step Back or Forward taken while a screen holds unsaved edits is
 * undone and asked about first, as the console's own links are. The screens keep showing the
 * address they are on until the operator answers. Each entry of the tab's history that the
 * console makes carries its place, so a step through history knows how far it went.
 */
const stepKey = 'consoleStep';

const stepOf = (state: unknown): number | undefined => {
  const step: unknown = typeof state === 'object' && state !== null ? Reflect.get(state, stepKey) : undefined;
  return typeof step === 'number' ? step : undefined;
};

/** The entry shown, and its path: what the screens draw. */
let at = stepOf(history.state) ?? 0;
let path = location.pathname;
if (stepOf(history.state) === undefined) history.replaceState({ [stepKey]: at }, '');

/** The guard's own step through history, whose popstate is not the operator's. */
let own: 'undo' | 'leave' | undefined;

const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const show = () => {
  path = location.pathname;
  listeners.forEach((listener) => listener());
};

export function navigate(to: string, { replace = false }: { replace?: boolean } = {}): void {
  if (!replace) at += 1;
  history[replace ? 'replaceState' : 'pushState']({ [stepKey]: at }, '', to);
  show();
}

export function useGuardedLocation(): [string, typeof navigate] {
  return [useSyncExternalStore(subscribe, () => path), navigate];
}

// A link within the page (跳到主要内容) makes an entry of its own, with no place yet.
addEventListener('hashchange', () => {
  if (stepOf(history.state) !== undefined) return;
  at += 1;
  history.replaceState({ [stepKey]: at }, '');
});

// Before wouter's own listeners (capture), so that a step held here never reaches them.
addEventListener(
  'popstate',
  (event) => {
    const step = stepOf(history.state);
    const moving = own;
    own = undefined;
    if (moving === 'undo') {
      event.stopImmediatePropagation();
      return;
    }
    // An entry without a place cannot be undone; it goes through.
    if (moving === 'leave' || step === undefined || location.pathname === path || !hasUnsavedEdits()) {
      at = step ?? at;
      show();
      return;
    }
    event.stopImmediatePropagation();
    const distance = step - at;
    own = 'undo';
    history.go(-distance);
    holdLeaving(() => {
      own = 'leave';
      history.go(distance);
    });
  },
  { capture: true },
);
