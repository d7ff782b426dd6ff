/**
 * Built-ins and browser APIs the site's script uses that the oldest engines served lack
 * (docs/site.md#the-oldest-browsers-served), added before it runs, in the legacy build only
 * (src/legacy.ts). Found by searching the legacy build for what came after Chromium 74 and
 * Safari 12; each written as the standard says, for the cases the site meets.
 */

// Chromium 93, Safari 15.4.
if (!Object.hasOwn)
  Object.defineProperty(Object, 'hasOwn', {
    configurable: true,
    writable: true,
    value: (object: object, key: PropertyKey) => Object.prototype.hasOwnProperty.call(object, key),
  });

// Chromium 76, Safari 13.
if (!Promise.allSettled)
  Object.defineProperty(Promise, 'allSettled', {
    configurable: true,
    writable: true,
    value: <T>(values: Iterable<T>) =>
      Promise.all(
        Array.from(values, (value) =>
          Promise.resolve(value).then(
            (result) => ({ status: 'fulfilled', value: result }),
            (reason: unknown) => ({ status: 'rejected', reason }),
          ),
        ),
      ),
  });

// Chromium 92, Safari 15.4.
if (!Array.prototype.at)
  Object.defineProperty(Array.prototype, 'at', {
    configurable: true,
    writable: true,
    value(this: unknown[], index: number) {
      const whole = Math.trunc(index) || 0;
      const at = whole < 0 ? this.length + whole : whole;
      return at < 0 || at >= this.length ? undefined : this[at];
    },
  });

// Safari 14: before, a media query's list is no event target and has addListener alone.
const mediaQueryList = Object.getPrototypeOf(window.matchMedia('all')) as MediaQueryList;
if (!('addEventListener' in mediaQueryList)) {
  type Listener = (event: MediaQueryListEvent) => void;
  Object.defineProperties(mediaQueryList, {
    addEventListener: {
      configurable: true,
      writable: true,
      value(this: MediaQueryList, type: string, listener: Listener) {
        if (type === 'change') this.addListener(listener);
      },
    },
    removeEventListener: {
      configurable: true,
      writable: true,
      value(this: MediaQueryList, type: string, listener: Listener) {
        if (type === 'change') this.removeListener(listener);
      },
    },
  });
}

// Chromium 64, Safari 13.1: the pinned strip's carousel watches its slides' sizes with it. The
// window's resize event stands in: the callback hears of every element observed, and the
// carousel measures them itself.
if (!('ResizeObserver' in window)) {
  class ResizeObserverOnWindow {
    private readonly targets = new Set<Element>();
    private readonly callback: ResizeObserverCallback;
    private readonly resized = () => {
      const entries = [...this.targets].map((target) => ({ target }) as ResizeObserverEntry);
      this.callback(entries, this as unknown as ResizeObserver);
    };
    constructor(callback: ResizeObserverCallback) {
      this.callback = callback;
    }
    observe(target: Element) {
      if (this.targets.size === 0) window.addEventListener('resize', this.resized);
      this.targets.add(target);
    }
    unobserve(target: Element) {
      this.targets.delete(target);
      if (this.targets.size === 0) window.removeEventListener('resize', this.resized);
    }
    disconnect() {
      this.targets.clear();
      window.removeEventListener('resize', this.resized);
    }
  }
  Object.defineProperty(window, 'ResizeObserver', {
    configurable: true,
    writable: true,
    value: ResizeObserverOnWindow,
  });
}

export {};
