/**
 * Runs before the first paint: the build compiles it and writes it inline into <head>
 * (web/build/early-scripts.ts), and the server's CSP allows it by its hash. The whole boot
 * sequence: docs/boot.md#boot-sequence.
 * 1. Puts the stored theme on the page root, so a light-theme visitor never sees a dark flash:
 *    the site's own rule (features/theme/theme.ts), which its script applies again.
 * 2. Turns the prerendered pages off when the visitor will get another language than the one the
 *    server sent them in (its <html lang>): the server picks by `?lang=`, the language cookie and
 *    Accept-Language, while this also sees a `?lang=` in the hash and a choice stored without the
 *    cookie (lib/language-pick.ts). The site's script then renders the screen in that language.
 *    src/boot-route.ts does the rest.
 * 3. Hides the prerendered landing page on any other route. On a slow network the page arrives
 *    in pieces and the browser paints what it has, before src/boot-route.ts (at the end of
 *    <body>) swaps in the route's own frame: the landing page would flash up, and its lazy
 *    pictures would start loading. Hidden from the start, it is never laid out.
 * 4. In an engine too old for the page's own stylesheet (lib/old-engine.ts), adds the legacy one
 *    here, in <head>, where it holds the first paint back as the page's own does.
 */
import { offLandingClass, prerenderOffClass } from '@chat-site/contract';
import { applyTheme, storedTheme } from './features/theme/theme';
import { defaultLanguage, languageFromUrl, languageOf, pickLanguage } from './lib/language-pick';
import { legacyStylesheet, oldEngine } from './lib/old-engine';
import { routePath } from './lib/route-path';
import { readString, storageKeys } from './lib/storage';

applyTheme(storedTheme());
const root = document.documentElement;
const language = pickLanguage(
  languageFromUrl(new URL(location.href)),
  readString(storageKeys.language),
  navigator.languages || [],
);
if (language !== (languageOf(root.lang) || defaultLanguage)) root.classList.add(prerenderOffClass);
if (routePath() !== '/') root.classList.add(offLandingClass);
// Unquoted, the tag is not one the page names for every engine (scripts/budget.ts counts those).
if (oldEngine()) document.write(`<link rel=stylesheet href=${legacyStylesheet}>`);
