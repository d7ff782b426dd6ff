/** The repository's root folder, for the browser tests, the scripts and the server's tests. */
import { resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..');
