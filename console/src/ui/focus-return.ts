/**
 * Where focus goes when a dialog closes or a save finishes (docs/console.md#keyboard): back on
 * the control that started it. A control disabled while its work runs gets focus again when it
 * is enabled; one that is gone (the screen changed) hands focus to the screen's heading, so
 * focus never falls to the page's body.
 */

/** The screen's main heading, made focusable by script only. */
function screenHeading(): HTMLElement | null {
  const heading = document.querySelector<HTMLElement>('#console-main h1');
  if (heading !== null && !heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  return heading;
}

const lost = () => document.activeElement === null || document.activeElement === document.body;

const usable = (element: HTMLElement) => element.isConnected && !element.matches(':disabled');

/** Puts focus back on `control` now or once it can take it; the screen's heading if it is gone.
 * Gives up as soon as the operator has put focus somewhere themselves. */
export function returnFocus(control: Element | null): void {
  const target = control instanceof HTMLElement && control !== document.body ? control : null;
  const settle = (): boolean => {
    if (!lost()) return true;
    if (target !== null && usable(target)) {
      target.focus();
      return true;
    }
    if (target !== null && target.isConnected) return false;
    const heading = screenHeading();
    heading?.focus();
    return heading !== null;
  };
  if (settle()) return;
  const watch = new MutationObserver(() => {
    if (settle()) watch.disconnect();
  });
  watch.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled'] });
}

/** Remembers the focused control when a save starts, and returns focus to it when it ends. A
 * save started from a dialog leaves this to the dialog, which knows what opened it. */
export function focusAfterWork(): () => void {
  const control = document.activeElement;
  if (control?.closest('[role="dialog"], [role="alertdialog"]')) return () => undefined;
  return () => returnFocus(control);
}
