/**
 * node:http as require() gives it. An `import` of a built-in module makes Node read every one of
 * its exports, and node:http's WebSocket, CloseEvent and MessageEvent are lazy exports that load
 * undici (Node's fetch) with web streams and more into every server process that never fetches
 * (docs/memory.md#built-in-modules). Types still come from `import type`.
 */
import type * as Http from 'node:http';
import { createRequire } from 'node:module';

const http = createRequire(import.meta.url)('node:http') as typeof Http;

export const { IncomingMessage, STATUS_CODES, ServerResponse, maxHeaderSize, request } = http;
/** The classes as types too, as `import { ServerResponse } from 'node:http'` gives them. */
export type IncomingMessage = Http.IncomingMessage;
export type ServerResponse = Http.ServerResponse;
