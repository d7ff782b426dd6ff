export * from './canonical.js';
export * from './site-config.js';
export * from './tolerant/index.js';
