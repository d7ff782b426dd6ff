/**
 * Two servers in this process on one database, alike but for the socket's reader: `reader` as
 * shipped, `node` with SOCKET_REPLAYS=0, where Node's HTTP parser reads every byte
 * (docs/architecture.md#replays-on-the-socket). Both have a test route, /v1/test/echo, that
 * answers and records what it saw. `exchange` sends the same raw bytes to each and gives back
 * everything each answered and everything its route saw, so that the two can be compared.
 */
import { createHash } from 'node:crypto';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { createBulletin } from '../src/bulletins/repository.js';
import { loadConfig } from '../src/config.js';
import { connect, type Db } from '../src/db/connect.js';
import { migrate } from '../src/db/migrations.js';
import { storageFor } from '../src/storage/index.js';
import { createTestDatabase, testEnv } from './helpers.js';

/** Cached reads the fast path replays once warmed, and the Accept-Encodings they are warmed for. */
export const cachedPaths = [
  '/v1/bulletin/detail?id=1',
  '/v1/bulletin/page?page_index=1&page_size=15',
  '/v1/common/appconfig',
];
export const warmEncodings = ['', 'br', 'gzip', 'gzip, deflate, br'];
export const echoPath = '/v1/test/echo';

/** What one server did with a stream: its answers as bytes (without Date) and its route's view. */
export interface Outcome {
  answers: string;
  /** Each request the echo route saw: method, target, headers as sent, body. */
  seen: string[];
  /** The server had not closed the connection within the wait. */
  hung: boolean;
}

interface Twin {
  app: FastifyInstance;
  db: Db;
  port: number;
  seen: string[];
  /** The server's side of each connection, by the client's port. */
  sockets: Map<number, Socket>;
}

export interface Twins {
  reader: Twin;
  node: Twin;
  close(): Promise<void>;
}

function echoRoute(seen: string[]) {
  return async (api: FastifyInstance) => {
    api.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    api.all('/test/echo', async (request) => {
      const body = Buffer.isBuffer(request.body) ? request.body.toString('latin1') : JSON.stringify(request.body);
      const view = JSON.stringify([request.raw.method, request.raw.url, request.raw.rawHeaders, body]);
      seen.push(view);
      return { seen: view };
    });
  };
}

async function startTwin(database: Awaited<ReturnType<typeof createTestDatabase>>, env: Record<string, string>) {
  const config = loadConfig(testEnv(database, env));
  const db = connect(config.database);
  const seen: string[] = [];
  const app = await buildApp({ config, db, extraApiRoutes: echoRoute(seen) });
  const sockets = new Map<number, Socket>();
  app.server.on('connection', (socket: Socket) => {
    const port = socket.remotePort ?? 0;
    sockets.set(port, socket);
    socket.on('close', () => sockets.delete(port));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, db, seen, sockets, port: (app.server.address() as AddressInfo).port };
}

export async function startTwins(): Promise<Twins> {
  const database = await createTestDatabase();
  const setup = connect(loadConfig(testEnv(database)).database);
  await migrate(setup, storageFor(loadConfig(testEnv(database)).storage));
  for (const n of [1, 2, 3]) {
    await createBulletin(setup.kysely, {
      title: `公告 ${n}`,
      content: `<p>${'正文'.repeat(40 * n)}</p>`,
      pinned: false,
    });
  }
  await setup.close();
  const reader = await startTwin(database, {});
  const node = await startTwin(database, { SOCKET_REPLAYS: '0' });
  for (const twin of [reader, node]) await warm(twin);
  return {
    reader,
    node,
    close: async () => {
      for (const twin of [reader, node]) {
        await twin.app.close();
        await twin.db.close();
      }
      await database.drop();
    },
  };
}

/** Asks each cached path with each warmed encoding until the fast path replays it. */
async function warm(twin: Twin): Promise<void> {
  const fast = twin.app.fastPath;
  if (fast === undefined) throw new Error('the fast path is off');
  for (const path of cachedPaths) {
    for (const encoding of warmEncodings) {
      for (const method of ['GET', 'HEAD']) {
        const field = encoding === '' ? '' : `Accept-Encoding: ${encoding}\r\n`;
        const request = `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n${field}\r\n`;
        const before = fast.replayed;
        for (let attempt = 0; attempt < 50 && fast.replayed === before; attempt++) {
          await talk(twin, [Buffer.from(request, 'latin1')], true);
          await new Promise((resolve) => setImmediate(resolve));
        }
        if (fast.replayed === before) throw new Error(`${method} ${path} ${encoding}: never replayed`);
      }
    }
  }
}

/** Longest a server may take to answer a stream and close the connection. */
const hangMs = 5000;

/**
 * Sends `pieces` on a new connection, each once the server has read the one before, then ends
 * the client's side: with the last piece (`endWithLast`) or once the server has read it too.
 * Resolves with every byte the server sent until it closed the connection.
 */
function talk(twin: Twin, pieces: Buffer[], endWithLast: boolean): Promise<{ bytes: Buffer; hung: boolean }> {
  return new Promise((resolve) => {
    const client = netConnect(twin.port, '127.0.0.1');
    const received: Buffer[] = [];
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      client.destroy();
    }, hangMs);
    client.on('data', (chunk: Buffer) => received.push(chunk));
    client.on('error', () => {});
    client.on('close', () => {
      clearTimeout(timer);
      resolve({ bytes: Buffer.concat(received), hung });
    });
    client.on('connect', async () => {
      let sent = 0;
      for (const [index, piece] of pieces.entries()) {
        const last = index === pieces.length - 1;
        if (client.destroyed) return;
        if (last && endWithLast) {
          client.end(piece);
          return;
        }
        client.write(piece);
        sent += piece.length;
        await serverHasRead(twin, client, sent);
      }
      client.end();
    });
  });
}

/** Until the server's side of `client` has read `count` bytes, or is gone. */
async function serverHasRead(twin: Twin, client: Socket, count: number): Promise<void> {
  for (;;) {
    const server = twin.sockets.get(client.localPort ?? 0);
    if (client.destroyed || server === undefined || server.destroyed || server.bytesRead >= count) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  // And whatever that read set off within this turn.
  await new Promise((resolve) => setImmediate(resolve));
}

/** The answers without their Date lines, which say when they were made. */
const undated = (bytes: Buffer): string => bytes.toString('latin1').replace(/\r\ndate: [^\r\n]*/gi, '');

/** Sends the stream to one server and gives back what it did with it. */
export async function exchange(twin: Twin, pieces: Buffer[], endWithLast: boolean): Promise<Outcome> {
  twin.seen.length = 0;
  const { bytes, hung } = await talk(twin, pieces, endWithLast);
  // A route may still be at work on a request whose answer will not be sent.
  await new Promise((resolve) => setImmediate(resolve));
  // In any order: a route that waits for a body may run after one behind it.
  return { answers: undated(bytes), seen: [...twin.seen].sort(), hung };
}

/** A short name for a stream, for failure messages. */
export const digest = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex').slice(0, 12);
