import type { ServerConfig } from '../config.js';
import type { Db } from '../db/connect.js';
import type { ReadCache } from './read-cache.js';

/** What every route module is handed by the app. */
export interface RouteDeps {
  db: Db;
  config: ServerConfig;
  /** Public reads answered from memory until content changes. */
  cache: ReadCache;
  /** Now; tests move it instead of waiting for days to pass. */
  clock?: (() => Date) | undefined;
}
