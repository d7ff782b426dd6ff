/**
 * The request log line and what it names, shared by Fastify's onResponse hook and by the fast
 * path (pipeline/fast-path.ts), so that a reply sent either way is logged the same
 * (docs/monitoring.md#logs): `{reqId, method, url, status, ms, ip}` with the message "request".
 */
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { ServerConfig } from '../config.js';
import { LogDestination } from '../lib/log-destination.js';
import type { RequestHead } from './replay-connections.js';

/** Writes one request line: `status` and `ms` as numbers, `ip` left out when unknown. */
export type RequestLine = (
  reqId: string,
  method: string,
  url: string,
  status: number,
  ms: number,
  ip: string | undefined,
) => void;

/** What JSON.stringify would escape in a string Node gives for a URL or a header (Latin-1). */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON escapes
const needsEscaping = /["\\\u0000-\u001f]/;
const jsonString = (text: string): string => (needsEscaping.test(text) ? JSON.stringify(text) : `"${text}"`);

/**
 * The request line writer of `log`, or undefined when the level leaves out `info`. The line is
 * the one `log.child({reqId}).info({method, url, status, ms, ip}, 'request')` writes, byte for
 * byte, but made with one template string and no object: pino's level and time prefix and the
 * logger's own bindings (pid, hostname) are taken from it once, and only the URL and the
 * address, which a client chooses, are escaped (Node's parser takes only methods it knows).
 * pino's way cost 5-6 µs of CPU a line, a quarter of a cached read (docs/monitoring.md#logs).
 */
export function requestLine(log: Logger): RequestLine | undefined {
  if (!log.isLevelEnabled('info')) return undefined;
  const { streamSym, lsCacheSym, timeSym, chindingsSym, endSym } = pino.symbols;
  const internals = log as unknown as Record<symbol, unknown>;
  const stream = internals[streamSym] as DestinationStream;
  const level = (internals[lsCacheSym] as Record<number, string>)[log.levels.values.info ?? 30] ?? '{"level":30';
  const time = internals[timeSym] as () => string;
  const bindings = internals[chindingsSym] as string;
  const end = internals[endSym] as string;
  return (reqId, method, url, status, ms, ip) => {
    stream.write(
      `${level}${time()}${bindings},"reqId":"${reqId}","method":"${method}","url":${jsonString(url)},` +
        `"status":${status},"ms":${ms}${ip === undefined ? '' : `,"ip":${jsonString(ip)}`},"msg":"request"${end}`,
    );
  };
}

/** Request ids as Fastify makes them by default ("req-1", "req-2" …), from one counter for both
 * ways a reply can go, so that no two lines of one process share an id. */
export function requestIds(): () => string {
  let next = 0;
  return () => `req-${(++next).toString(36)}`;
}

/** Fastify's trustProxy setting for TRUST_PROXY: a hop count believes only the addresses the
 * operator's own proxies appended; never `true`, which would believe any X-Forwarded-For. */
export function trustedProxies(
  trustProxy: ServerConfig['trustProxy'],
): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy;
}

/** The client's address as Fastify's `request.ip` works it out with the same trustProxy setting. */
export function clientAddress(trustProxy: ServerConfig['trustProxy']): (raw: RequestHead) => string | undefined {
  const trusted = trustedProxies(trustProxy);
  if (trusted === false) return (raw) => raw.socket.remoteAddress;
  const trust = typeof trusted === 'function' ? trusted : proxyAddr.compile(trusted);
  return (raw) => {
    // proxy-addr reads only the headers and the socket's address, which a RequestHead has.
    const addresses = proxyAddr.all(raw as IncomingMessage, trust);
    return addresses[addresses.length - 1];
  };
}

/** Milliseconds to one decimal, as the line gives them. */
export const roundedMs = (ms: number): number => Math.round(ms * 10) / 10;

/** Where the server's log goes: standard output, in batches (lib/log-destination.ts). */
export function logDestination(): DestinationStream {
  return new LogDestination(1);
}
