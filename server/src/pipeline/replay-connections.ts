/**
 * The fast path's replays written straight to the socket (docs/architecture.md#replays-on-the-socket):
 * a connection starts here instead of in Node's HTTP server, and while each request on it is a
 * plain GET or HEAD whose reply the fast path holds (pipeline/fast-path.ts), the reply's bytes go out
 * without an IncomingMessage or a ServerResponse being made for it. Node's HTTP server parses and
 * answers about two thirds as many requests a second as this does on the same core.
 *
 * The first request that is anything else hands the connection to Node's HTTP server for good,
 * with every byte from that request on, untouched: a request this reader does not take is one
 * Node reads as if it had had the connection from the start. So this reader takes only what it
 * can frame beyond doubt, and leaves the rest (and every error answer) to Node:
 * - the request line is `GET` or `HEAD`, a target in origin form of visible ASCII, `HTTP/1.1`;
 * - every header line is a token, a colon and a value of visible characters, with CRLF endings;
 * - there is a Host, no header twice, and none of Content-Length, Transfer-Encoding, Upgrade,
 *   Expect, or a Connection other than keep-alive;
 * - the request is whole in what has arrived, and its head is at most half Node's header limit.
 * The reply's bytes are the ones Node's ServerResponse writes for the fast path's writeHead and
 * end: the recorded status and headers, then Date, Connection, Keep-Alive and Content-Length as
 * Node adds them (server/test/fast-path.test.ts compares the two).
 */
import type { IncomingHttpHeaders, IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { STATUS_CODES, maxHeaderSize } from '../lib/node-http.js';
import { answeringError, handOverBytes } from './client-errors.js';

/** What the fast path reads of a request, from Node's parser or this one. */
export type RequestHead = Pick<IncomingMessage, 'method' | 'url' | 'headers' | 'socket'>;

/** A reply ready to go, and the check made once the content's generation is known. */
export interface Ready {
  /** The status line and the recorded headers, each line ending in CRLF. */
  head: Buffer;
  /** The bytes after the head; undefined for HEAD and 304. */
  body: Buffer | undefined;
  /** The recorded headers lack Content-Length, which Node then adds for a body. */
  addLength: boolean;
  /** Still current once the reads of this turn are done (ContentChanges.afterReads)? */
  current(): boolean;
  /** Counts and logs the reply once it has gone, timed from when it was found. */
  sent(): void;
}

export interface ReplaySource {
  /** A reply for the request, or undefined when Node's HTTP server and Fastify should answer. */
  find(request: RequestHead): Ready | undefined;
  /** Runs `task` once the generation of content is known for every request read so far. */
  afterReads(task: () => void): void;
  /** False once the server stops: every connection then goes to Node's HTTP server. */
  open(): boolean;
}

type ConnectionListener = (this: Server, socket: Socket) => void;

const requestLine = /^(GET|HEAD) (\/[\x21-\x7e]*) HTTP\/1\.1$/;
// A token, then the value without the optional whitespace around it (RFC 9110, field values):
// visible characters, with spaces and tabs only inside.
const headerLine =
  /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[\t ]*((?:[\x21-\x7e\x80-\xff](?:[\t \x21-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?)[\t ]*$/;
/** Headers that change how a request is framed or what the connection becomes. */
const notTaken = new Set(['content-length', 'transfer-encoding', 'upgrade', 'expect']);

/**
 * The head of the request in `bytes` from `start` to `end` (where its blank line begins), or
 * undefined when it is not one this reader takes.
 */
export function parseHead(bytes: Buffer, start: number, end: number, socket: Socket): RequestHead | undefined {
  const lines = bytes.toString('latin1', start, end).split('\r\n');
  const first = requestLine.exec(lines[0] ?? '');
  if (first === null) return undefined;
  const headers: IncomingHttpHeaders = {};
  for (let i = 1; i < lines.length; i++) {
    const field = headerLine.exec(lines[i] ?? '');
    if (field === null) return undefined;
    const name = (field[1] ?? '').toLowerCase();
    const value = field[2] ?? '';
    if (Object.hasOwn(headers, name) || notTaken.has(name)) return undefined;
    if (name === 'connection' && value.toLowerCase() !== 'keep-alive') return undefined;
    headers[name] = value;
  }
  if (headers.host === undefined) return undefined;
  return { method: first[1] ?? '', url: first[2] ?? '', headers, socket };
}

/** Node's Date header, made again once a second. */
let dateSecond = -1;
let dateLine = '';
function date(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateLine = `Date: ${new Date(now).toUTCString()}\r\n`;
  }
  return dateLine;
}

/** The head of a recorded reply: its status line and headers, as Node's writeHead writes them. */
export function replyHead(status: number, headers: readonly string[]): Buffer {
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'unknown'}\r\n`;
  for (let i = 0; i < headers.length; i += 2) head += `${headers[i]}: ${headers[i + 1]}\r\n`;
  return Buffer.from(head, 'latin1');
}

/**
 * Takes new connections on `server` first; the fast path decides which requests it answers. The
 * server's closeIdleConnections and closeAllConnections take in the connections read here, so
 * that a stopping server (Fastify's close, serving.ts) closes them as it closes its own.
 */
export function replayOnSockets(server: Server, source: ReplaySource): void {
  const listeners = server.listeners('connection') as ConnectionListener[];
  const [http] = listeners;
  if (listeners.length !== 1 || http === undefined) throw new Error("expected one connection listener (Node's HTTP)");
  server.removeListener('connection', http);
  const held = new Set<ReplayConnection>();
  const toHttp = (socket: Socket) => http.call(server, socket);
  server.on('connection', (socket: Socket) => {
    if (!source.open()) {
      toHttp(socket);
      return;
    }
    held.add(new ReplayConnection(socket, server, source, toHttp, held));
  });
  const closeIdle = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {
    for (const connection of held) connection.closeIfIdle();
    closeIdle();
  };
  const closeAll = server.closeAllConnections.bind(server);
  server.closeAllConnections = () => {
    for (const connection of held) connection.destroy();
    closeAll();
  };
}

interface Queued {
  ready: Ready;
  /** Where the request begins in the bytes it came in. */
  from: number;
}

class ReplayConnection {
  readonly #socket: Socket;
  readonly #server: Server;
  readonly #source: ReplaySource;
  readonly #toHttp: (socket: Socket) => void;
  readonly #held: Set<ReplayConnection>;
  /** Replies waiting for the generation of content (at most one chunk's requests). */
  #busy = false;
  #answered = false;
  /** The client has sent its last byte: the connection ends once its replies are out. */
  #ended = false;
  readonly #onData = (chunk: Buffer) => this.#read(chunk);
  readonly #onEnd = () => this.#clientEnded();
  readonly #onTimeout = () => this.#timedOut();
  readonly #onDrain = () => this.#socket.resume();
  readonly #onGone = () => this.#held.delete(this);

  constructor(
    socket: Socket,
    server: Server,
    source: ReplaySource,
    toHttp: (socket: Socket) => void,
    held: Set<ReplayConnection>,
  ) {
    this.#socket = socket;
    this.#server = server;
    this.#source = source;
    this.#toHttp = toHttp;
    this.#held = held;
    socket.setNoDelay(true);
    // A connection that has not sent a whole first request soon is Node's, with its timeouts.
    socket.on('timeout', this.#onTimeout);
    socket.setTimeout(firstRequestMs);
    socket.on('data', this.#onData);
    socket.on('drain', this.#onDrain);
    // Node's HTTP server allows half-open connections and ends its side itself: so does this.
    socket.on('end', this.#onEnd);
    socket.on('error', this.#onGone);
    socket.on('close', this.#onGone);
  }

  /**
   * As Node's HTTP server treats its own: a connection between requests is closed; one that has
   * not sent a whole request yet becomes Node's, which waits for it as for any other.
   */
  closeIfIdle(): void {
    if (this.#busy) return;
    if (this.#answered) this.#socket.destroy();
    else this.#handOver(undefined);
  }

  destroy(): void {
    this.#socket.destroy();
  }

  #clientEnded(): void {
    this.#ended = true;
    if (!this.#busy) this.#socket.end();
  }

  #timedOut(): void {
    // Between requests the connection closes, as Node's own keep-alive timeout closes it.
    if (this.#answered) this.#socket.destroy();
    else this.#handOver(undefined);
  }

  #read(chunk: Buffer): void {
    if (!this.#source.open()) {
      this.#handOver(chunk);
      return;
    }
    const queued: Queued[] = [];
    let at = 0;
    while (at < chunk.length) {
      const end = chunk.indexOf('\r\n\r\n', at, 'latin1');
      if (end < 0 || end - at > largestHead) break;
      const request = parseHead(chunk, at, end, this.#socket);
      const ready = request === undefined ? undefined : this.#source.find(request);
      if (ready === undefined) break;
      queued.push({ ready, from: at });
      at = end + 4;
    }
    if (queued.length === 0) {
      this.#handOver(chunk);
      return;
    }
    this.#busy = true;
    this.#socket.pause();
    this.#source.afterReads(() => this.#write(queued, chunk, at));
  }

  /** Writes the queued replies, or hands the connection over from the first that is stale. */
  #write(queued: Queued[], chunk: Buffer, rest: number): void {
    this.#busy = false;
    const socket = this.#socket;
    if (socket.destroyed) return;
    socket.cork();
    for (const { ready, from } of queued) {
      if (!this.#source.open() || !ready.current()) {
        socket.uncork();
        this.#handOver(chunk.subarray(from));
        return;
      }
      socket.write(ready.head);
      socket.write(this.#tail(ready), 'latin1');
      if (ready.body !== undefined) socket.write(ready.body);
      ready.sent();
    }
    socket.uncork();
    if (!this.#answered) {
      this.#answered = true;
      // From now on the keep-alive timeout, which the socket restarts at every read and write.
      socket.setTimeout(this.#server.keepAliveTimeout + keepAliveBuffer(this.#server));
    }
    if (rest < chunk.length) {
      this.#handOver(chunk.subarray(rest));
      return;
    }
    if (this.#ended) {
      socket.end();
      return;
    }
    if (!this.#source.open()) {
      this.#handOver(undefined);
      return;
    }
    // A client that does not read its replies gets no more until it has (as Node's HTTP waits).
    if (!socket.writableNeedDrain) socket.resume();
  }

  /** What Node's ServerResponse adds to the recorded headers of a kept-alive reply. */
  #tail(ready: Ready): string {
    const keepAlive = Math.floor(this.#server.keepAliveTimeout / 1000);
    const length = ready.body === undefined || !ready.addLength ? '' : `Content-Length: ${ready.body.length}\r\n`;
    return `${date()}Connection: keep-alive\r\nKeep-Alive: timeout=${keepAlive}\r\n${length}\r\n`;
  }

  /** From now on Node's HTTP server has the connection, starting with `bytes`. */
  #handOver(bytes: Buffer | undefined): void {
    const socket = this.#socket;
    this.#held.delete(this);
    socket.removeListener('data', this.#onData);
    socket.removeListener('drain', this.#onDrain);
    socket.removeListener('end', this.#onEnd);
    socket.removeListener('error', this.#onGone);
    socket.removeListener('close', this.#onGone);
    socket.setTimeout(0);
    socket.removeListener('timeout', this.#onTimeout);
    if (socket.destroyed) return;
    socket.resume();
    this.#toHttp(socket);
    if (!this.#ended) {
      // Flowing, with Node's listener on: the bytes reach its parser now, before any that follow.
      if (bytes !== undefined && bytes.length > 0) handOverBytes(socket, () => socket.unshift(bytes));
      return;
    }
    // The client has ended its side, and the socket has said so to this reader only: Node's
    // listeners hear the rest of its bytes and the end from here (a stream takes no unshift then).
    // Bytes Node cannot read are answered with an error, which then ends the connection itself.
    if (bytes !== undefined && bytes.length > 0) handOverBytes(socket, () => socket.emit('data', bytes));
    if (!answeringError(socket)) socket.emit('end');
  }
}

/** Heads longer go to Node's server, whose limit (`--max-http-header-size`) counts its own way. */
const largestHead = Math.floor(maxHeaderSize / 2);

/** How long a new connection has to send its first whole request before Node's server takes it. */
const firstRequestMs = 1000;

/** Node 24 keeps an idle connection a little longer than the Keep-Alive header says. */
function keepAliveBuffer(server: Server): number {
  return (server as Server & { keepAliveTimeoutBuffer?: number }).keepAliveTimeoutBuffer ?? 0;
}
