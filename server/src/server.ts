/** The only file that opens a port: starts the server and stops it gracefully on SIGTERM. */
import { countUsers } from './accounts/repository.js';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type ServerConfig } from './config.js';
import { connect } from './db/connect.js';
import { migrate } from './db/migrations.js';
import { loadDemoContent } from './demo/load.js';
import { storageFor } from './storage/index.js';

async function main(): Promise<void> {
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

  const db = connect(config.database);
  const storage = storageFor(config.storage);
  await migrate(db, storage);
  const app = await buildApp({ config, db });
  if (config.demoContent && (await loadDemoContent(db.kysely, storage)))
    app.log.info('loaded demo content into the empty database');
  if ((await countUsers(db.kysely)) === 0) {
    app.log.info('no operator accounts yet: create one with `npm run admin -- users add NAME --role admin`');
  }

  let stopping = false;
  closeConnectionsWhileStopping(app, () => stopping);
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing requests in flight');
    const timer = setTimeout(() => {
      app.log.error('requests still in flight after SHUTDOWN_TIMEOUT_MS; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    await app.close();
    await db.close();
    app.log.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info({ address, database: config.database.kind }, `serving on ${address.replace('0.0.0.0', 'localhost')}`);
}

/**
 * While the server stops, no connection is kept alive: an answer still being prepared says
 * `Connection: close`, and a connection whose answer was already under way when the stop began
 * (a long download) is closed as soon as that answer is complete. Without this such a connection
 * stays open for the keep-alive timeout, and a proxy that sends it its next request gets a 503
 * (docs/operations.md#several-servers-on-one-postgresql).
 */
function closeConnectionsWhileStopping(app: FastifyInstance, stopping: () => boolean): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (stopping() && !reply.raw.headersSent) reply.header('connection', 'close');
    return payload;
  });
  app.addHook('onResponse', async () => {
    // Once Node has put the finished connection back among the idle ones.
    if (stopping()) setImmediate(() => app.server.closeIdleConnections());
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`Server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
