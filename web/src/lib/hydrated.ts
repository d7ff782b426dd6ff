import { startTransition, useEffect, useState } from 'react';

// True except while React adopts the prerendered page, and while the build prerenders it.
let settled = true;

/** Called before the prerender and before hydrating it. */
export function beginHydration(): void {
  settled = false;
}

/**
 * False in the prerender and in the render that hydrates it, true ever after. Whatever the
 * prerender cannot know (the footer it leaves out, the host the page is served on) waits for it,
 * so the first client render matches the HTML node for node. It then arrives in a transition,
 * split into short tasks like the hydration itself.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(settled);
  useEffect(() => {
    if (hydrated) return;
    settled = true;
    startTransition(() => setHydrated(true));
  }, [hydrated]);
  return hydrated;
}
