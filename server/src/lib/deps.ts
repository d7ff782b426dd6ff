import type { ServerConfig } from '../config.js';
import type { Db } from '../db/connect.js';

/** What every route module is handed by the app. */
export interface RouteDeps {
  db: Db;
  config: ServerConfig;
}
