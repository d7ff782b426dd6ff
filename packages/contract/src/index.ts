export * from './canonical.js';
export * from './site-config.js';
export * from './tolerant/index.js';
export * from './page-names.js';
export * from './prerender-marker.js';
export * from './language.js';
export * from './html-allowlist.js';
