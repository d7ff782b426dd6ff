/**
 * An engine older than those the site's own scripts and stylesheet are built for
 * (docs/site.md#the-oldest-browsers-served): one without color-mix(), which came after
 * everything else they use (Chromium 111, Safari 16.2, Firefox 113). It gets the legacy build
 * instead (web/build/legacy-build.ts): the boot scripts load its stylesheet and its script.
 */
export const oldEngine = (): boolean => !CSS.supports('color', 'color-mix(in lab,red,red)');

/** The legacy build's stylesheet and script, named by the build (web/build/early-scripts.ts). */
declare const __LEGACY_STYLESHEET__: string;
declare const __LEGACY_SCRIPT__: string;
export const legacyStylesheet = __LEGACY_STYLESHEET__;
export const legacyScript = __LEGACY_SCRIPT__;
