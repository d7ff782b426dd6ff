/**
 * The answer to what Node's HTTP parser cannot read, or to a client too slow to send its request
 * (docs/public-api.md#requests-on-one-connection): `{status, msg}` JSON, then the connection
 * closes. Requests that came in whole before it on the same connection are answered first, in
 * order, whatever the time their routes take: Node alone writes its error at once and closes, so
 * a pipelined request before the bad bytes was answered only if its route had finished by then.
 * That made the answers a matter of timing, and not the same with the socket's reader in front
 * (pipeline/replay-connections.ts), which answers its requests before Node reads the rest.
 */
import type { Socket } from 'node:net';
import { IncomingMessage, STATUS_CODES, ServerResponse } from '../lib/node-http.js';

/** What Node keeps on a connection and its answers, read here (lib/_http_server.js, _http_outgoing.js). */
type Connection = Socket & { _httpMessage?: ServerResponse | null; parser?: { incoming?: IncomingMessage | null } };
type Answer = ServerResponse & { _last?: boolean; _header?: string | null };

/** The answer told the client the connection ends with it (else Node ends it as the client has). */
const saysClose = (answer: Answer): boolean =>
  !answer.shouldKeepAlive || /\r\nconnection:[\t ]*close\r\n/i.test(answer._header ?? '');

const answerOf = Symbol('answer');
const bodyBegun = Symbol('body begun');
type Request = IncomingMessage & { [answerOf]?: ServerResponse; [bodyBegun]?: true };

/**
 * Node's request, knowing whether a piece of its body has been read: reading the socket itself,
 * Node's parser runs the promise queue after each piece of a body it hands over, not after a head.
 */
export class RequestFromClient extends IncomingMessage {
  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    if (chunk !== null) (this as Request)[bodyBegun] = true;
    return super.push(chunk, encoding);
  }
}

/** Node's answer, known from its request too: the server's `ServerResponse` (server-options.ts). */
export class AnswerToRequest extends ServerResponse {
  // Node also passes options (the socket's high-water mark) that the types leave out.
  constructor(request: IncomingMessage, ...rest: unknown[]) {
    super(...([request, ...rest] as [IncomingMessage]));
    (request as Request)[answerOf] = this;
  }
}

/** Connections whose error answer is decided: Node's parser reports each later read again. */
const answered = new WeakSet<Socket>();

/** Connections whose bytes the socket's reader is giving Node's parser at this moment. */
const handingOver = new WeakSet<Socket>();

/**
 * Runs `feed`, which gives Node's parser bytes the socket's reader has read
 * (pipeline/replay-connections.ts). Reading the socket itself, the parser hands each piece of a
 * body to JavaScript from the event loop, and the promise queue runs before it reads on; called
 * from JavaScript, the queue waits until `feed` returns. So an error found in those bytes after a
 * piece of its request's body is answered only once that request's route has run what it runs at
 * once, as it had with Node alone (answerClientError).
 */
export function handOverBytes(socket: Socket, feed: () => void): void {
  handingOver.add(socket);
  try {
    feed();
  } finally {
    handingOver.delete(socket);
  }
}

/** Whether the connection's error answer is decided, and so is what ends it. */
export function answeringError(socket: Socket): boolean {
  return answered.has(socket);
}

export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (answered.has(socket)) return;
  answered.add(socket);
  if (error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  // The request the bad bytes are part of (Node clears it as soon as the connection closes).
  const bad: Request | null | undefined = (socket as Connection).parser?.incoming;
  // Node alone would have run the promise queue only if a piece of this body came before the bad
  // bytes: then a route that answers at once has answered.
  if (!handingOver.has(socket) || bad?.[bodyBegun] !== true) {
    answer(error, socket, bad);
    return;
  }
  // Node alone would have answered, and closed, before it read the client's end: so an end heard
  // meanwhile is left to the answer, which ends the connection.
  const emit = socket.emit;
  socket.emit = function (this: Socket, event: string | symbol, ...rest: unknown[]) {
    return event !== 'end' && (Reflect.apply(emit, this, [event, ...rest]) as boolean);
  } as typeof emit;
  // Node's promise and tick queues, run as they would have been between the parser's callbacks:
  // until the bad request's route has answered, or for as many turns as an answer made at once
  // takes (a route that waits on anything else answers too late for Node alone too).
  let turns = 0;
  const turn = () => {
    if (madeBefore(bad) === undefined && ++turns < queueTurns) {
      process.nextTick(() => queueMicrotask(turn));
      return;
    }
    socket.emit = emit;
    answer(error, socket, bad);
  };
  turn();
}

/** Rounds of the tick and promise queues a route's answer may take to be made (Fastify's take a few). */
const queueTurns = 16;

/** The bad request's answer, if its route made it before the bad bytes were found. */
const madeBefore = (bad: Request | null | undefined): ServerResponse | undefined =>
  bad?.complete === false && bad[answerOf]?.writableEnded === true ? bad[answerOf] : undefined;

function answer(error: NodeJS.ErrnoException, socket: Socket, bad: Request | null | undefined): void {
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify({ status, msg: STATUS_CODES[status] ?? 'Bad Request' });
  const bytes =
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  // The bad request's answer goes out only if it was made before they were found (a route may
  // answer before the body is read), as it was then written at once when its turn had come.
  afterAnswers(socket as Connection, madeBefore(bad), () => {
    if (socket.writable && !socket.destroyed) socket.write(bytes);
    socket.destroy();
  });
}

/** Closes a connection Node has given up reading (a CONNECT) once its answers under way have gone. */
export function closeAfterAnswers(socket: Socket): void {
  answered.add(socket);
  afterAnswers(socket as Connection, undefined, () => socket.destroy());
}

/**
 * Runs `then` once every answer under way on `socket` whose request came in whole has been
 * written, and `made`, the bad request's answer if it was made before they were found; never one
 * made later, which `then` replaces.
 * Node hands the connection to each answer in turn (ServerResponse.assignSocket sets the socket's
 * `_httpMessage`, detachSocket clears it once the answer has gone), and writes the next one's
 * bytes as it hands it over: so the hand-over itself is where this looks. An answer that told the
 * client the connection ends (`Connection: close`) is the last, and `then` never runs; one after
 * which Node ends it because the client has ended its side gets `then` run first.
 */
function afterAnswers(socket: Connection, made: ServerResponse | undefined, then: () => void): void {
  let current = socket._httpMessage as Answer | null | undefined;
  const waited = (answer: ServerResponse) => answer.req.complete || answer === made;
  if (current === undefined || current === null || socket.destroyed || !waited(current)) {
    then();
    return;
  }
  let settled = false;
  const settle = () => {
    if (settled) return;
    settled = true;
    then();
  };
  Object.defineProperty(socket, '_httpMessage', {
    configurable: true,
    get: () => current,
    set: (next: Answer | null) => {
      const previous = current;
      current = next;
      if (settled) return;
      if (next !== null) {
        // After what its turn sends first (a 100 Continue, pipeline/answer-order.ts), before its bytes.
        if (!waited(next)) next.once('socket', settle);
        return;
      }
      if (previous?._last === true) {
        if (saysClose(previous)) settled = true;
        else settle();
        return;
      }
      // Another answer is handed the connection at once, if there is one.
      process.nextTick(() => {
        if (current === null) settle();
      });
    },
  });
}
