/**
 * What a server process runs once the entry (server.ts) has chosen its role: serving alone
 * (WORKERS=1), as one of a supervisor's workers, or preparing the database for a supervisor
 * before it starts its workers (migrations, demo content, the start-up hints). The supervisor
 * never loads this module, so it holds none of the app (docs/scaling.md#workers).
 */
import cluster from 'node:cluster';
import net from 'node:net';
import { pino, type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import { countUsers } from './accounts/repository.js';
import { scryptPool, threadsPerWorker } from './accounts/scrypt-pool.js';
import { buildApp } from './app.js';
import { supervisorNoticedClose, workerPeers } from './cluster/peers.js';
import type { Prepared } from './cluster/start.js';
import { ConfigError, loadConfig, type ServerConfig } from './config.js';
import { connect, type Db } from './db/connect.js';
import { databaseName, databaseUrlToType } from './db/database-names.js';
import { migrate, pendingMigrations } from './db/migrations.js';
import { loadDemoContent } from './demo/load.js';
import { trimWhenIdle } from './lib/idle-trim.js';
import { logDestination } from './pipeline/request-log.js';
import { useAsLocalTime } from './lib/time.js';
import { pictureThread } from './reach/picture/drawer.js';
import { siteCardOf } from './reach/picture/pictures.js';
import { storageFor } from './storage/index.js';
import { closeToOthers } from './storage/private-files.js';

export type Role = 'alone' | 'worker' | 'prepare';

export async function run(role: Role): Promise<void> {
  let config: ServerConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  useAsLocalTime(config.timeZone);
  // The password-hashing threads are the server's, shared out over its workers.
  scryptPool.resize(threadsPerWorker(config.workers));

  if (role === 'alone') {
    warmPictures(config);
    const db = connect(config.database);
    await prepare(config, db, pino({ level: config.logLevel }, logDestination()));
    await serve(config, db, await buildApp({ config, db }));
  } else if (role === 'prepare') {
    const db = connect(config.database);
    try {
      await prepare(config, db, pino({ level: config.logLevel }, logDestination()));
    } finally {
      await db.close();
    }
    const prepared: Prepared = {
      chatSite: 'prepared',
      workers: config.workers,
      shutdownTimeoutMs: config.shutdownTimeoutMs,
      logLevel: config.logLevel,
    };
    process.send?.(prepared, () => process.exit(0));
  } else {
    // Migrations, demo content and the start-up hints were done once, before the workers started,
    // by this build's supervisor; one of an older build may not have (docs/deploy.md#upgrades).
    warmPictures(config);
    const peers = workerPeers();
    const db = connect(config.database);
    await migrateBeforeServing(config, db, pino({ level: config.logLevel }, logDestination()));
    const app = await buildApp({ config, db, peers });
    const address = await serve(config, db, app);
    process.send?.({ chatSite: 'listening', address });
  }
}

/**
 * Starts the share pictures' drawing thread and has it lay the site's card out, so that the first
 * picture asked for finds satori and the common font slices loaded. It starts before the
 * migrations and the app, not at listen: the thread (at nice 19) loads while the process sets
 * itself up, and the first picture after a start comes that much sooner
 * (docs/scaling.md#share-pictures).
 */
function warmPictures(config: ServerConfig): void {
  if (config.sharePicturesWarm) void pictureThread.warm(siteCardOf(config.site.productName));
}

/** What happens once per start, before any request: migrations, demo content, hints. */
async function prepare(config: ServerConfig, db: Db, log: Logger): Promise<void> {
  const storage = storageFor(config.storage);
  await migrate(db, storage, undefined, logMigration(log));
  await closeOldFilesToOthers(config, log);
  if (config.demoContent && (await loadDemoContent(db.kysely, storage)))
    log.info('loaded demo content into the empty database');
  if (config.production && config.publicUrl === undefined) {
    // Without it, absolute addresses are made from each request's Host (docs/public-api.md#host-rules).
    log.warn(
      "PUBLIC_URL is not set: feed entry ids and share addresses (og:url) follow each request's Host " +
        'header, so one announcement gets an id and an address per host name, and the site page names ' +
        "its address and share picture relatively; set PUBLIC_URL to the site's public origin " +
        '(e.g. https://chat.example.com)',
    );
  }
  if ((await countUsers(db.kysely)) === 0) {
    // Run as written, the command must reach this server's database, not the default file.
    const url = databaseUrlToType(config.database);
    log.info(
      `no operator accounts yet in ${databaseName(config.database)}: create one with ` +
        `\`DATABASE_URL='${url}' npm run admin -- users add NAME --role admin\``,
    );
  }
}

/** Files an older build left readable by others: the directory store's and the resumable
 * uploads' staging folder (storage/private-files.ts). */
async function closeOldFilesToOthers(config: ServerConfig, log: Logger): Promise<void> {
  const dirs = [config.uploadDir, ...(config.storage.kind === 'file' ? [config.storage.dir] : [])];
  for (const dir of dirs) {
    const changed = await closeToOthers(dir);
    if (changed > 0) {
      log.info({ dir, changed }, `made ${changed} files and folders in ${dir} readable by the server's user only`);
    }
  }
}

/** Logs each migration run, and how long it took. */
function logMigration(log: Logger) {
  return ({ name, ms }: { name: string; ms: number }) =>
    log.info({ migration: name, ms }, `migration ${name} ran in ${ms} ms`);
}

/**
 * A worker never serves on a database with migrations pending: it runs them itself, under the
 * migration lock (db/migrations.ts), or, when they fail, refuses to start, so that the workers
 * already serving stay as they are. Pending ones mean whatever started this worker did not
 * migrate first: the supervisor of an older build, sent SIGHUP after the new build was installed.
 */
async function migrateBeforeServing(config: ServerConfig, db: Db, log: Logger): Promise<void> {
  const pending = await pendingMigrations(db).catch(() => ['(the whole schema)']);
  if (pending.length === 0) return;
  log.warn(
    { pending },
    `migrations pending at a worker's start (${pending.join(', ')}): whatever started this worker did not migrate; running them before serving`,
  );
  try {
    await migrate(db, storageFor(config.storage), undefined, logMigration(log));
  } catch (error) {
    log.error(
      { err: error },
      `refusing to serve: the pending migrations failed (${(error as Error).message}); the workers already serving stay as they are`,
    );
    await db.close();
    process.exit(1);
  }
  log.info({ migrations: pending }, 'migrated the database before serving');
}

/** Listens, and stops gracefully on SIGTERM or SIGINT; answers the address. */
async function serve(config: ServerConfig, db: Db, app: FastifyInstance): Promise<string> {
  let stopping = false;
  let stopTrimming = () => {};
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    stopTrimming();
    // From now on every request goes to Node's server and Fastify, even on a connection the fast
    // path has been reading itself (pipeline/replay-connections.ts): so each gets `Connection: close`.
    app.fastPath?.close();
    app.log.info({ signal }, 'stopping: finishing requests in flight');
    // A worker hands its clients to the others first (drain); a server alone lets them go.
    if (!cluster.isWorker) closeConnectionsWhileStopping(app);
    const timer = setTimeout(() => {
      app.log.error('requests still in flight after SHUTDOWN_TIMEOUT_MS; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    if (cluster.isWorker) await drain(app, Math.min(drainMs, config.shutdownTimeoutMs / 2));
    await app.close();
    await db.close();
    app.log.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  // At rest, the heap gives back what the last burst of requests grew it by.
  stopTrimming = trimWhenIdle(config.idleTrimMs, (trimmed) =>
    app.log.info({ ...trimmed, ms: Math.round(trimmed.ms) }, 'gave memory back at rest'),
  );
  if (cluster.isWorker) app.log.info({ worker: cluster.worker?.id }, 'worker listening');
  else
    app.log.info({ address, database: config.database.kind }, `serving on ${address.replace('0.0.0.0', 'localhost')}`);
  return address;
}

/** Longest a stopping worker waits for its keep-alive clients to go before it closes them. */
const drainMs = 1000;

/**
 * A worker that stops while others serve on (a rolling restart, or all of them stopping) first
 * stops taking connections, then answers each request on the ones it has with
 * `Connection: close`, so that the client's next request opens a connection another worker
 * takes. Only after that, or `ms`, are connections still idle closed. http.Server#close would
 * close idle keep-alive connections at once, cutting a request a client is sending that moment.
 */
async function drain(app: FastifyInstance, ms: number): Promise<void> {
  const server = app.server;
  server.prependListener('request', (_request, response) => response.setHeader('connection', 'close'));
  let closed = false;
  const allGone = new Promise<void>((done) => server.once('close', done)).then(() => (closed = true));
  net.Server.prototype.close.call(server);
  await supervisorNoticedClose();
  await Promise.race([allGone, new Promise((wait) => setTimeout(wait, ms))]);
  // Fastify closes the server again; once it has closed its 'close' event will not come again.
  const close = server.close.bind(server);
  server.close = ((callback?: (error?: Error) => void) => {
    if (!closed) return close(callback);
    if (callback !== undefined) process.nextTick(callback);
    return server;
  }) as typeof server.close;
}

/**
 * While the server stops, no connection is kept alive: an answer still to be written says
 * `Connection: close`, and a connection whose answer was already under way when the stop began
 * (a long download) is closed as soon as that answer is complete. Without this such a connection
 * stays open for the keep-alive timeout, and a proxy that sends it its next request gets a 503
 * (docs/scaling.md#several-servers-on-one-postgresql). Set up only once the stop begins, so
 * serving costs nothing for it.
 */
function closeConnectionsWhileStopping(app: FastifyInstance): void {
  const server = app.server;
  server.prependListener('request', (_request, response) => response.setHeader('connection', 'close'));
  // A connection is idle once its last answer is complete; checked often, until the process ends.
  setInterval(() => server.closeIdleConnections(), 20).unref();
}
