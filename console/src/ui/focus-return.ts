/**
 * Where focus goes when a dialog closes or a save finishes (docs/console.md#keyboard): back on
 * the control that started it. A control disabled while its work runs gets focus again when it
 * is enabled; one that is gone (its form was drawn anew, the screen changed) hands focus to the
 * heading of its section, or of the screen, so focus never falls to the page's body.
 */
import { useLayoutEffect, useRef } from 'react';

/** The heading of the section that held a control, while that section is still there, else
 * the screen's main heading; made focusable by script only. */
function headingFor(section: Element | null): HTMLElement | null {
  const inSection = section?.isConnected === true ? section.querySelector<HTMLElement>('h1, h2, h3') : null;
  const heading = inSection ?? document.querySelector<HTMLElement>('#console-main h1');
  if (heading !== null && !heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  return heading;
}

const lost = () => document.activeElement === null || document.activeElement === document.body;

const usable = (element: HTMLElement) => element.isConnected && !element.matches(':disabled');

/** The control focus is waiting for (disabled while its save runs), if any. */
let awaited: HTMLElement | null = null;

/** Keys and pointers pressed so far. Focus that moved while none was pressed was moved by a
 * script (the rich text taking focus back to its text, say), not by the operator. */
let inputs = 0;
if (typeof document !== 'undefined') {
  for (const type of ['keydown', 'pointerdown'] as const) {
    document.addEventListener(type, () => (inputs += 1), { capture: true });
  }
}

/** Puts focus back on `control` now or once it can take it; a heading if it is gone.
 * Gives up as soon as the operator has put focus somewhere themselves. `since` (a count of
 * inputs, see `inputs`) is when a dialog closed: focus that a script moved after it, with no
 * key or pointer pressed since, does not count as the operator's, and is taken back. */
export function returnFocus(control: Element | null, since?: number): void {
  const target = control instanceof HTMLElement && control !== document.body ? control : null;
  const section = target?.closest('section') ?? null;
  const settle = (): boolean => {
    if (!lost() && (since === undefined || inputs !== since)) return true;
    if (target !== null && usable(target)) {
      target.focus();
      return true;
    }
    if (target !== null && target.isConnected) return false;
    const heading = headingFor(section);
    heading?.focus();
    return heading !== null;
  };
  if (settle()) return;
  awaited = target;
  const watch = new MutationObserver(() => {
    if (!settle()) return;
    watch.disconnect();
    if (awaited === target) awaited = null;
  });
  watch.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled'] });
}

/** What a dialog opening now should give focus back to: the focused control, or the one focus
 * is waiting for (a save that ends in a dialog, the conflict, opens it while focus is nowhere). */
export function currentControl(): Element | null {
  return lost() ? awaited : document.activeElement;
}

/** Remembers the focused control when a save starts, and returns focus to it when it ends. A
 * save started from a dialog leaves this to the dialog, which knows what opened it. */
export function focusAfterWork(): () => void {
  const control = document.activeElement;
  if (control?.closest('[role="dialog"], [role="alertdialog"]')) return () => undefined;
  return () => returnFocus(control);
}

/** A dialog's focus (docs/console.md#keyboard): the control that opened it, taken when it opens,
 * gets focus back when it closes, even if a script moved focus in between. Radix gives focus
 * back a task after the dialog is gone, and the rich text's own focus handling can run first. */
export function useDialogFocus(open: boolean): { opened: () => void; closed: () => void } {
  const opener = useRef<Element | null>(null);
  const closedAt = useRef(0);
  useLayoutEffect(() => {
    if (!open) closedAt.current = inputs;
  }, [open]);
  return {
    opened: () => {
      opener.current = currentControl();
    },
    closed: () => returnFocus(opener.current, closedAt.current),
  };
}
