import { serviceWorkerDelayMs } from '../config/constants';

/**
 * Registers the service worker the build writes to /sw.js (web/build/service-worker.ts). It
 * serves the next visit, not this one (offline, and the built files from the cache), so it waits
 * until this visit is under way: a few seconds after the load event, when the page is idle, or
 * at once when the visitor leaves the tab. Its install fetches every built file, which on a slow
 * phone would share the network and the processor with the page's own start.
 *
 * A new build's worker takes over by itself (skipWaiting + clients.claim); the page in front of
 * the visitor keeps running the code it loaded, and the next navigation or reload gets the new
 * build.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  let registered = false;
  const register = () => {
    if (registered) return;
    registered = true;
    document.removeEventListener('visibilitychange', onHidden);
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => {
      console.warn('[site] service worker:', error instanceof Error ? error.message : error);
    });
  };
  const onHidden = () => {
    if (document.visibilityState === 'hidden') register();
  };
  const whenIdle = () =>
    'requestIdleCallback' in window ? requestIdleCallback(register, { timeout: 5_000 }) : register();
  const later = () => setTimeout(whenIdle, serviceWorkerDelayMs);
  document.addEventListener('visibilitychange', onHidden);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}
