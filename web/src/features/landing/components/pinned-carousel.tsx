import { formatMonthDay, type Bulletin } from '@chat-site/contract';
import Autoplay from 'embla-carousel-autoplay';
import useEmblaCarousel from 'embla-carousel-react';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { carouselDelayMs } from '../../../config/constants';
import { paths } from '../../../config/paths';
import { afterNextPaint } from '../../../lib/after-paint';
import { currentLanguage } from '../../../lib/i18n';

/** Under this media query the strip still moves on, but jumps instead of scrolling. */
export const reducedMotion = '(prefers-reduced-motion: reduce)';

/** The whole strip around the carousel: where the pointer and focus pause the autoplay. */
const stripOf = (emblaRoot: HTMLElement): HTMLElement => emblaRoot.closest('section') ?? emblaRoot;

/** Whether focus inside `root` is the kind the browser shows, a keyboard's. Engines before
 * :focus-visible (Chromium 86) reject the selector: there any focus counts
 * (docs/site.md#the-oldest-browsers-served). */
function shownFocusWithin(root: HTMLElement): boolean {
  try {
    return root.querySelector(':focus-visible') !== null;
  } catch {
    return root.querySelector(':focus') !== null;
  }
}

/**
 * Vertical, looping, every 3 s when there is more than one; swiping does not stop it. It pauses
 * while the pointer is over the strip or focus is inside it, and resumes when they leave.
 * Loaded as its own chunk after the first paint: the strip waits for the API anyway.
 */
export default function PinnedCarousel({ items }: { items: Bulletin[] }) {
  // The strip is shown first and set moving once it has been painted: the carousel measures its
  // slides when it starts, and before that paint the measuring would lay out the whole page in
  // the carousel's own task, one long task on a slow phone.
  const [started, setStarted] = useState(false);
  useEffect(() => afterNextPaint(() => setStarted(true)), []);
  const moving = items.length > 1;
  const [viewport, carousel] = useEmblaCarousel(
    { axis: 'y', loop: moving, active: moving && started, dragThreshold: 5 },
    moving
      ? [
          Autoplay({
            delay: carouselDelayMs,
            stopOnInteraction: false,
            stopOnMouseEnter: true,
            stopOnFocusIn: true,
            // Started below, unless the visitor is already on the strip.
            playOnInit: false,
            breakpoints: { [reducedMotion]: { jump: true } },
            rootNode: stripOf,
          }),
        ]
      : [],
  );
  // The autoplay pauses on the pointer entering the strip or a Tab into it, events that may
  // have come before it started: a pointer resting where the strip appeared, a quick Tab. It
  // then starts paused, and moves on once they leave, as after those events.
  useEffect(() => {
    if (carousel === undefined) return;
    const root = stripOf(carousel.rootNode());
    // Nothing until the carousel is first active: embla has no plugins before.
    const autoplay = () => (carousel.plugins() as ReturnType<typeof carousel.plugins> | undefined)?.autoplay;
    const visitorOn = () => root.matches(':hover') || shownFocusWithin(root);
    const start = () => void (visitorOn() || autoplay()?.play());
    // The autoplay pauses for focus only when the focus lands within 10 ms of the Tab key
    // press, which a busy phone can miss; a focus the browser shows as the keyboard's pauses it
    // here whatever the delay. The autoplay's own focusout starts it again.
    const pause = () => void (visitorOn() && autoplay()?.stop());
    start();
    carousel.on('init', start).on('reInit', start);
    root.addEventListener('focusin', pause);
    return () => {
      carousel.off('init', start).off('reInit', start);
      root.removeEventListener('focusin', pause);
    };
  }, [carousel]);
  return (
    <div ref={viewport} className="h-6 min-w-0 flex-1 overflow-hidden sm:h-7">
      <PinnedItems items={items} />
    </div>
  );
}

function PinnedItems({ items }: { items: Bulletin[] }) {
  return (
    <ul className="flex h-full flex-col">
      {items.map((item) => (
        <li key={item.id} className="min-h-0 shrink-0 grow-0 basis-full">
          <Link
            href={paths.announcement(item.id)}
            className="flex h-full items-center gap-3 text-sm hover:text-brand sm:text-[15px]"
          >
            <span className="min-w-0 flex-1 truncate">{item.title}</span>
            <time
              dateTime={item.createdAt.slice(0, 10)}
              className="shrink-0 text-xs text-muted tabular-nums sm:text-sm"
            >
              {formatMonthDay(item.createdAt, currentLanguage())}
            </time>
          </Link>
        </li>
      ))}
    </ul>
  );
}
