/**
 * The admin API's requests and answers (docs/admin-api.md#the-admin-wire-types): the server
 * validates and documents with these schemas, the console reads their `Static` types (imported
 * as types only, so no TypeBox reaches its bundle), the tests check real answers against them.
 */
export * from './common.js';
export * from './accounts.js';
export * from './audit.js';
export * from './bulletins.js';
export * from './bulletin-history.js';
export * from './files.js';
export * from './numbers.js';
export * from './packages.js';
export * from './releases.js';
export * from './settings.js';
export * from './listing.js';
