import { useSyncExternalStore } from 'react';
import { useHashLocation } from 'wouter/use-hash-location';

/**
 * The hash router's location without the hash's own query, so `#/download?os=ios` is still the
 * download route; the query is read with wouter's useSearch through useHashSearch.
 */
export const useHashPath = Object.assign(
  (): ReturnType<typeof useHashLocation> => {
    const [location, navigate] = useHashLocation();
    return [location.split('?')[0] ?? '/', navigate];
  },
  // What wouter's <Link> renders as href, as useHashLocation's own formatter does.
  { hrefs: (href: string) => `#${href}` },
);

const hashQuery = () => {
  const at = window.location.hash.indexOf('?');
  return at < 0 ? '' : window.location.hash.slice(at + 1);
};

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

/** The hash's own query ("os=ios" for `#/download?os=ios`). */
export function useHashSearch(): string {
  return useSyncExternalStore(subscribe, hashQuery, () => '');
}
