/**
 * Built-ins the site's script uses that the oldest engines served lack
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

export {};
