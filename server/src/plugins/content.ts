/**
 * What the routes share about content: the change feed, the schedule check and the read cache
 * (docs/architecture.md#how-a-request-flows-through-the-server), decorated on the app for what
 * watches the server, and stopped with it.
 */
import type { FastifyInstance } from 'fastify';
import { watchSchedule, type Schedule } from '../bulletins/schedule.js';
import type { Peers } from '../cluster/peers.js';
import type { ServerConfig } from '../config.js';
import { watchContentChanges, type ContentChanges } from '../db/changes.js';
import type { Db } from '../db/connect.js';
import type { RouteDeps } from '../pipeline/deps.js';
import { ReadCache } from '../pipeline/read-cache.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The public reads held in memory, for what watches the server (tests, metrics). */
    readCache: ReadCache;
    /** Tells when published content may have changed (db/changes.ts). */
    contentChanges: ContentChanges;
    /** The schedule check (bulletins/schedule.ts): tests run it with a clock of their own. */
    schedule: Schedule;
  }
}

export interface ContentOptions {
  db: Db;
  config: ServerConfig;
  /** The other workers of this server: a change one of them made drops this one's cache too. */
  peers?: Peers;
  clock?: () => Date;
}

/** Starts watching content; gives what every route module is handed. */
export function watchContent(app: FastifyInstance, { db, config, peers, clock }: ContentOptions): RouteDeps {
  const changes = watchContentChanges(db, app.log);
  peers?.onChange(() => changes.changed());
  const schedule = watchSchedule(db.kysely, changes, app.log, clock);
  app.decorate('schedule', schedule);
  app.addHook('onClose', async () => {
    schedule.stop();
    await changes.close();
  });
  const cache = new ReadCache({ changes, maxBytes: config.readCacheMaxBytes });
  app.decorate('readCache', cache);
  app.decorate('contentChanges', changes);
  return { db, config, cache };
}
