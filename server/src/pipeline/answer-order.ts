/**
 * Answers on one connection go out whole and in the order of their requests, whatever the time
 * their routes take (docs/public-api.md#requests-on-one-connection), as the socket's reader writes
 * its own (pipeline/replay-connections.ts). Node's HTTP server left these to timing:
 * - a client that ends its side of the connection: Node ended it at once, with only the answers
 *   whose routes had finished; now every request sent whole before gets its answer first;
 * - `Expect: 100-continue` on a request behind others still being answered: Node wrote its
 *   `100 Continue` after the head of the final answer once that answer was queued; now it goes
 *   out when the request's turn comes, before its answer;
 * - any other `Expect`: Node answered 417 before the body was read, though the body could still
 *   turn out to be bad;
 * - a CONNECT: Node closed the connection at once.
 * Bytes Node cannot read are pipeline/client-errors.ts's.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { closeAfterAnswers } from './client-errors.js';
import { STATUS_CODES } from '../lib/node-http.js';

const continueLine = 'HTTP/1.1 100 Continue\r\n\r\n';

export function answerInOrder(server: Server): void {
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  // With a listener here, Node leaves the 100 and the 'request' event to it.
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (response.socket !== null) {
      response.writeContinue();
    } else {
      // The connection is the answer's once the answers before it have gone: 'socket' comes before
      // the answer's bytes, which may all be made by then, are written. Node closes a connection
      // whose answer went without the 100 it expected: this one will not.
      (response as ServerResponse & { _sent100: boolean })._sent100 = true;
      response.once('socket', (socket: Socket) => socket.write(continueLine));
    }
    server.emit('request', request, response);
  });
  // Node closes a connection at a CONNECT, which this server does not take, at once: now after the
  // answers to the requests before it.
  server.on('connect', (_request: IncomingMessage, socket: Socket) => closeAfterAnswers(socket));
  // Node answers any other expectation with a 417 as the request's head is read, before its body:
  // this one comes like a route's, once the body has been read (or found bad: pipeline/client-errors.ts).
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.once('end', () => {
      const body = JSON.stringify({ status: 417, msg: STATUS_CODES[417] });
      response.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      response.end(body);
    });
  });
}
