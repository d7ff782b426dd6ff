/**
 * Built-ins the site's script uses that the oldest engines served lack
 * (docs/behaviour.md#the-oldest-browsers-served), added before it runs, in the legacy build only
 * (src/legacy.ts).
 */
export {};
