import { useLayoutEffect, useRef } from 'react';

/** Keeps --console-header-height on the page at the sticky header's height (two rows on a phone,
 * one on a desktop), so what sticks below it, the editor's toolbar, sticks just under it. */
export function useHeaderHeight() {
  const header = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const element = header.current;
    if (element === null) return;
    const root = document.documentElement;
    const resize = new ResizeObserver(() =>
      root.style.setProperty('--console-header-height', `${element.offsetHeight}px`),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      root.style.removeProperty('--console-header-height');
    };
  }, []);
  return header;
}
