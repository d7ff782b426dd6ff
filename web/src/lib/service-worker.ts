/**
 * Registers the service worker the build writes to /sw.js (web/build/service-worker.ts), after
 * the page has loaded so it never competes with the first paint. A new build's worker takes over
 * by itself (skipWaiting + clients.claim); the page in front of the visitor keeps running the
 * code it loaded, and the next navigation or reload gets the new build.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => {
      console.warn('[site] service worker:', error instanceof Error ? error.message : error);
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
