/**
 * The answer to what Node's HTTP parser cannot read, or to a client too slow to send its request
 * (docs/public-api.md#requests-on-one-connection): `{status, msg}` JSON, then the connection
 * closes. Requests that came in whole before it on the same connection are answered first, in
 * order, whatever the time their routes take: Node alone writes its error at once and closes, so
 * a pipelined request before the bad bytes was answered only if its route had finished by then.
 * That made the answers a matter of timing, and not the same with the socket's reader in front
 * (pipeline/replay-connections.ts), which answers its requests before Node reads the rest.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { STATUS_CODES, ServerResponse } from '../lib/node-http.js';

/** What Node keeps on a connection and its answers, read here (lib/_http_server.js, _http_outgoing.js). */
type Connection = Socket & { _httpMessage?: ServerResponse | null; parser?: { incoming?: IncomingMessage | null } };
type Answer = ServerResponse & { _last?: boolean; _header?: string | null };

/** The answer told the client the connection ends with it (else Node ends it as the client has). */
const saysClose = (answer: Answer): boolean =>
  !answer.shouldKeepAlive || /\r\nconnection:[\t ]*close\r\n/i.test(answer._header ?? '');

const answerOf = Symbol('answer');
type Request = IncomingMessage & { [answerOf]?: ServerResponse };

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

export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (answered.has(socket)) return;
  answered.add(socket);
  if (error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify({ status, msg: STATUS_CODES[status] ?? 'Bad Request' });
  const bytes =
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  // The request the bad bytes are part of: its answer goes out only if it was made before they
  // were found (a route may answer before the body is read), as it was then written at once when
  // its turn had come.
  const bad: Request | null | undefined = (socket as Connection).parser?.incoming;
  const made = bad?.complete === false && bad[answerOf]?.writableEnded === true ? bad[answerOf] : undefined;
  afterAnswers(socket as Connection, made, () => {
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
