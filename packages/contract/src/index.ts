export * from './canonical.js';
export * from './site-config.js';
