/**
 * The names the page's parts find each other by: the build writes them into index.html, the
 * boot scripts (web/src/boot.ts, web/src/boot-route.ts, web/src/early-download.ts) read and set
 * them before the site's script runs, the site's script takes over from them, and the server
 * writes some of them into the page it sends. Each is a plain string constant, so a bundle keeps
 * only the ones it uses. web/src/styles.css spells the class names it styles by (prerender-off,
 * off-landing, primary-host, data-prerender, data-primary-host-only) itself: CSS cannot import.
 * The boot sequence: docs/boot.md#boot-sequence.
 */

/** The element the site renders into, which holds the prerendered landing page. */
export const rootId = 'root';

// <meta name> of the page's head.
/** The operator's settings as JSON, written by the server into every page it sends. */
export const siteConfigMetaName = 'site-config';
/** The site's script (the entry first, then the modules it imports), which boot-route starts
 * once the first frame is painted; the build writes it instead of a <script src>. */
export const entryScriptsMetaName = 'entry-scripts';

// Classes of the page's root element (<html>).
/** The prerendered frames stay hidden: the visitor gets another language, or the route has none. */
export const prerenderOffClass = 'prerender-off';
/** The route is not the landing page: the landing page's frame is hidden from the first paint. */
export const offLandingClass = 'off-landing';
/** Set by the server on the primary domain, before any script runs. */
export const primaryHostClass = 'primary-host';

// Attributes of the page's root element (<html>).
/** Set by the site's script as it starts: from then on the page is its to answer. */
export const runningAttribute = 'data-running';
/** Set by the site's script once its first render is on screen. */
export const renderedAttribute = 'data-rendered';
/** The route whose list (announcements) or cards (download) were drawn from the early answers. */
export const earlyListAttribute = 'data-early-list';
/** A tap on a download a chat app's browser blocks, caught by web/src/early-download.ts (before
 * the site's script runs, and while it starts), as "kind address", for the site to answer with its
 * guide (docs/site.md#in-app-browsers). */
export const inAppTapAttribute = 'data-in-app-tap';
/** The language picked in the header before the site's script ran. */
export const earlyLanguageAttribute = 'data-early-language';

// The prerendered frames the build writes (web/build/prerender.ts).
/** On a frame's own element: the route it was drawn for (`/` for the landing page in #root). */
export const prerenderAttribute = 'data-prerender';
/** On a <template> that holds another route's frame: that route. */
export const routeAttribute = 'data-route';
/** On such a template: the URLs, space-separated, of the code of that route's screen. */
export const scriptsAttribute = 'data-scripts';
/** On such a template: `primary` when the frame is the primary domain's (primaryHostFrame). */
export const hostAttribute = 'data-host';
export const primaryHostFrame = 'primary';
/** On such a template: the API call (under /v1/) whose answer the screen shows first. */
export const earlyCallAttribute = 'data-early-call';
/** On such a template: the URL of the script that draws the screen from the early answers. */
export const earlyScriptAttribute = 'data-early-script';
/** A <template> inside the announcements frame with sample rows of its list. */
export const earlyRowsAttribute = 'data-early-rows';
/** The parts of a sample row or card (title, date, pinned, button …) the early drawing fills. */
export const fieldAttribute = 'data-field';
/** A download card's platform, by which the early drawing finds the prerendered cards. */
export const platformAttribute = 'data-platform';
/** What a download link fetches (a DownloadKind of in-app.ts), for the in-app browsers' guide. */
export const downloadKindAttribute = 'data-download';
/** Anything still loading (the loading line, a download card's reserved facts). */
export const loadingAttribute = 'data-loading';
/** Shown on the primary domain only (by CSS, from primaryHostClass). */
export const primaryHostOnlyAttribute = 'data-primary-host-only';
/** The `elementtiming` name of the first title drawn early, whose paint boot-route waits for. */
export const earlyListTiming = 'early-list';

/** The window property where boot-route leaves its early API calls for the site's script. */
export const earlyAnswersGlobal = '__earlyAnswers';
