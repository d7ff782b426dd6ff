import { useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

const moves: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowDown: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  ArrowUp: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_index, count) => count - 1,
};

/**
 * A WAI-ARIA toolbar (docs/console.md#keyboard): one Tab stop, the arrow keys, Home and End
 * move between its buttons, and Tab comes back to the button last used. Buttons come and go
 * with the selection (a table's, a picture's), so the one stop is kept on the DOM after every
 * render rather than in state.
 */
export function Toolbar({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  const bar = useRef<HTMLDivElement>(null);
  const last = useRef(0);
  const buttons = () => [...(bar.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
  useLayoutEffect(() => {
    const all = buttons();
    const current = Math.min(last.current, all.length - 1);
    all.forEach((button, index) => button.setAttribute('tabindex', index === current ? '0' : '-1'));
  });
  const remember = (target: EventTarget) => {
    const all = buttons();
    const index = all.indexOf(target as HTMLButtonElement);
    if (index < 0) return;
    last.current = index;
    all.forEach((button, at) => button.setAttribute('tabindex', at === index ? '0' : '-1'));
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const move = moves[event.key];
    const all = buttons();
    const index = all.indexOf(event.target as HTMLButtonElement);
    if (move === undefined || index < 0) return;
    event.preventDefault();
    all[move(index, all.length)]?.focus();
  };
  return (
    <div
      ref={bar}
      role="toolbar"
      aria-label={label}
      className={className}
      onKeyDown={onKeyDown}
      onFocus={(event) => remember(event.target)}
    >
      {children}
    </div>
  );
}
