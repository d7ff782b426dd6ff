import { fileURLToPath } from 'node:url';

/**
 * The folders the server reads from, found from where this module runs: directly in
 * server/dist/, as compiled, or inside the bundled command line beside it (server/dist/admin.js,
 * scripts/bundle-admin.mjs). Any module that needs a path starts from here rather than from its
 * own place, which bundling changes.
 */
export const serverRoot = fileURLToPath(new URL('../', import.meta.url));
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
