/** The numbers of docs/site.md#numbers, named once. */
export const timeouts = { defaultMs: 10_000, pingMs: 1_000, regionDocumentMs: 1_000 } as const;
export const carouselDelayMs = 3_000;
export const scrollTopThresholdPx = 400;
export const mobileBreakpointPx = 768;
/** Matches from the breakpoint up: the screens that show list and detail side by side. */
export const wideQuery = `(min-width: ${mobileBreakpointPx}px)`;
export const detailScrollResetMs = 100;
/** How many announcements the list screen asks for at once: the API's largest page. */
export const announcementPageSize = 100;
/** How long after the page's load event the service worker is registered (src/lib/service-worker.ts). */
export const serviceWorkerDelayMs = 5_000;
