/**
 * The request log line and what it names, shared by Fastify's onResponse hook and by the fast
 * path (lib/fast-path.ts), so that a reply sent either way is logged the same
 * (docs/operations.md#logs): `{reqId, method, url, status, ms, ip}` with the message "request".
 */
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { pino, type DestinationStream } from 'pino';
import type { ServerConfig } from '../config.js';

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
export function clientAddress(trustProxy: ServerConfig['trustProxy']): (raw: IncomingMessage) => string | undefined {
  const trusted = trustedProxies(trustProxy);
  if (trusted === false) return (raw) => raw.socket.remoteAddress;
  const trust = typeof trusted === 'function' ? trusted : proxyAddr.compile(trusted);
  return (raw) => {
    const addresses = proxyAddr.all(raw, trust);
    return addresses[addresses.length - 1];
  };
}

/** Milliseconds to one decimal, as the line gives them. */
export const roundedMs = (ms: number): number => Math.round(ms * 10) / 10;

/**
 * Where the server's log goes: standard output, written asynchronously. Lines made while a write
 * is under way are written together by the next one, off the event loop, so a busy server spends
 * one system call on many request lines rather than one each (docs/operations.md#logs). Written
 * out before the process exits, also on a crash; at most 16 MB waits when standard output stops
 * taking lines, past which lines are dropped rather than memory growing.
 */
export function logDestination(): DestinationStream {
  return pino.destination({ dest: 1, sync: false, maxLength: 16 * 1024 * 1024 });
}
