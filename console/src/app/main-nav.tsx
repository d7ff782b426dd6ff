import { useLayoutEffect, useRef, useState, type MouseEvent } from 'react';
import { Link } from 'wouter';

interface Item {
  href: string;
  label: string;
}

/**
 * The console's navigation. On a phone it is one row that scrolls sideways; a fade at either
 * edge shows there is more that way (docs/console.md#on-a-phone), and the current screen is
 * scrolled into view.
 */
export function MainNav({
  items,
  location,
  onClick,
}: {
  items: Item[];
  location: string;
  onClick: (href: string) => (event: MouseEvent) => void;
}) {
  const nav = useRef<HTMLElement>(null);
  const [more, setMore] = useState({ before: false, after: false });
  useLayoutEffect(() => {
    const element = nav.current;
    if (element === null) return;
    const measure = () => {
      // scrollLeft is negative in a right-to-left page; the console is left to right.
      const left = Math.abs(element.scrollLeft);
      const room = element.scrollWidth - element.clientWidth;
      setMore({ before: left > 1, after: room - left > 1 });
    };
    element.querySelector('[aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    measure();
    element.addEventListener('scroll', measure, { passive: true });
    const resize = new ResizeObserver(measure);
    resize.observe(element);
    return () => {
      element.removeEventListener('scroll', measure);
      resize.disconnect();
    };
  }, [location]);
  const fade = 'pointer-events-none absolute inset-y-0 w-10 from-bg to-transparent transition-opacity';
  return (
    <div className="relative order-3 -mx-1 w-full min-w-0 md:order-none md:w-auto">
      <nav ref={nav} aria-label="主导航" className="flex gap-1 overflow-x-auto [scrollbar-width:thin]">
        {items.map((item) => {
          const current = location === item.href || location.startsWith(`${item.href}/`);
          return (
            <Link
              key={item.href}
              href={item.href}
              onClick={onClick(item.href)}
              aria-current={current ? 'page' : undefined}
              className={`rounded-lg px-3 py-2 text-sm whitespace-nowrap hover:bg-surface-2 ${current ? 'bg-surface-2 font-semibold text-fg' : 'text-muted'}`}
            >
              {item.label}
            </Link>
          );
        })}
      </nav>
      <span
        aria-hidden="true"
        data-more="before"
        className={`${fade} start-0 bg-linear-to-r ${more.before ? 'opacity-100' : 'opacity-0'}`}
      />
      <span
        aria-hidden="true"
        data-more="after"
        className={`${fade} end-0 bg-linear-to-l ${more.after ? 'opacity-100' : 'opacity-0'}`}
      />
    </div>
  );
}
