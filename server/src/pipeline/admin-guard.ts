/**
 * The door of the admin API: the bearer token, compared in constant time, and a limit on failed
 * attempts per client so that the token cannot be guessed by brute force. Also the one check
 * every admin body gets: its text must be storable exactly as sent, in SQLite and PostgreSQL.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from '../lib/errors.js';

export interface FailureLimitOptions {
  /** Failed attempts a client may make in one window; the next request is refused. */
  maxFailures: number;
  /** The window starts at a client's first failure; when it has passed the client starts over. */
  windowMs: number;
  /** Most clients remembered at once; when full, the one whose window began first is forgotten. */
  maxClients?: number;
  /** A clock in milliseconds that never goes back; tests pass their own. */
  now?: () => number;
}

interface Failures {
  count: number;
  since: number;
}

/**
 * Failed attempts per client, in memory (each server process counts its own). Clients are kept
 * in the order their windows began, so expired ones are always at the front: forgetting them
 * costs nothing per request, and the map never holds more than maxClients entries.
 */
export class FailureLimiter {
  readonly #clients = new Map<string, Failures>();
  readonly #maxFailures: number;
  readonly #windowMs: number;
  readonly #maxClients: number;
  readonly #now: () => number;

  constructor(options: FailureLimitOptions) {
    this.#maxFailures = options.maxFailures;
    this.#windowMs = options.windowMs;
    this.#maxClients = options.maxClients ?? 10_000;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Milliseconds until the client may try again; 0 when it may try now. */
  retryAfterMs(client: string): number {
    const failures = this.#current(client);
    if (failures === undefined || failures.count < this.#maxFailures) return 0;
    return Math.max(1, failures.since + this.#windowMs - this.#now());
  }

  recordFailure(client: string): void {
    this.#forgetExpired();
    const failures = this.#current(client);
    if (failures !== undefined) {
      failures.count += 1;
      return;
    }
    if (this.#clients.size >= this.#maxClients) {
      const oldest = this.#clients.keys().next();
      if (oldest.done !== true) this.#clients.delete(oldest.value);
    }
    this.#clients.set(client, { count: 1, since: this.#now() });
  }

  /** How many clients are remembered. */
  get size(): number {
    return this.#clients.size;
  }

  #current(client: string): Failures | undefined {
    const failures = this.#clients.get(client);
    if (failures !== undefined && this.#now() - failures.since >= this.#windowMs) {
      this.#clients.delete(client);
      return undefined;
    }
    return failures;
  }

  #forgetExpired(): void {
    const now = this.#now();
    for (const [client, failures] of this.#clients) {
      if (now - failures.since < this.#windowMs) break;
      this.#clients.delete(client);
    }
  }
}

/**
 * Whom a request's failures count against: the IPv4 address, or the /64 network of an IPv6 one,
 * since a single IPv6 subscriber is handed a whole /64 and could otherwise take a fresh address
 * for every guess. IPv4-mapped IPv6 addresses count as the IPv4 address they carry.
 */
export function clientKey(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1] !== undefined) return mapped[1];
  return `${expandIpv6(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, without leading zeros ("2001:db8::1" → 2001, db8, 0, …). */
function expandIpv6(ip: string): string[] {
  const [head = '', tail] = ip.replace(/%.*$/, '').split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const middle = Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0');
  return [...left, ...middle, ...right].map((group) =>
    group.includes('.') ? group : group.replace(/^0+(?=.)/, '').toLowerCase(),
  );
}

export type TokenCheck = 'valid' | 'wrong' | 'absent';

/**
 * Compares the bearer token of an Authorization header with the expected one in constant time:
 * both are hashed first, so neither their contents nor their lengths leak through timing.
 * 'absent' means no bearer token was presented at all (no header, another scheme).
 */
export function bearerTokenChecker(token: string): (authorization: unknown) => TokenCheck {
  const expected = createHash('sha256').update(token).digest();
  return (authorization) => {
    if (typeof authorization !== 'string' || !authorization.startsWith('Bearer ')) return 'absent';
    const given = createHash('sha256').update(authorization.slice('Bearer '.length)).digest();
    return timingSafeEqual(given, expected) ? 'valid' : 'wrong';
  };
}

export const tooManyFailures = 'too many failed attempts, try again later';

/**
 * An onRequest hook for the admin API. A client (clientKey of request.ip, which honours TRUST_PROXY) that has
 * presented a wrong bearer token maxFailures times gets 429 with Retry-After for every admin
 * request, even one with the right token, until its window has passed. A request without any
 * bearer token is refused with 401 but not counted: it cannot guess the token. Successful
 * requests never count.
 */
export function adminGuard(options: { token: string; proxyTrusted: boolean } & FailureLimitOptions) {
  const limiter = new FailureLimiter(options);
  const check = bearerTokenChecker(options.token);
  let warnedOfProxy = options.proxyTrusted;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!warnedOfProxy && request.headers['x-forwarded-for'] !== undefined) {
      warnedOfProxy = true;
      request.log.warn(
        'admin API: a request came through a proxy (X-Forwarded-For) but TRUST_PROXY is not set, so every ' +
          'client looks like the proxy and one client failing can lock out all; set TRUST_PROXY to the number of proxies',
      );
    }
    const client = clientKey(request.ip);
    const retryAfterMs = limiter.retryAfterMs(client);
    if (retryAfterMs > 0) {
      return reply
        .status(429)
        .header('retry-after', String(Math.ceil(retryAfterMs / 1000)))
        .send({ status: 429, msg: tooManyFailures });
    }
    const result = check(request.headers.authorization);
    if (result === 'valid') return;
    if (result === 'wrong') {
      limiter.recordFailure(client);
      request.log.warn({ ip: request.ip, client }, 'admin API: wrong bearer token');
    }
    return reply.status(401).header('www-authenticate', 'Bearer').send({ status: 401, msg: 'unauthorized' });
  };
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text a database cannot store exactly as sent: NUL (PostgreSQL refuses it) or a lone
 * surrogate (both databases would store U+FFFD in its place). */
export function isUnstorableText(text: string): boolean {
  return text.includes('\u0000') || loneSurrogate.test(text);
}

/** The path (body/…) of the first unstorable string, key or value, in a parsed JSON body. The
 * walk keeps its own stack, so no nesting depth can overflow the call stack, and builds a path
 * only for what it finds. */
export function unstorableTextPath(body: unknown): string | undefined {
  interface Step {
    value: unknown;
    key: string;
    parent: Step | undefined;
  }
  const pathOf = (step: Step | undefined): string => {
    const keys: string[] = [];
    for (let at = step; at !== undefined; at = at.parent) keys.push(at.key);
    return keys.reverse().join('/');
  };
  const pending: Step[] = [{ value: body, key: 'body', parent: undefined }];
  for (let step = pending.pop(); step !== undefined; step = pending.pop()) {
    const { value } = step;
    if (typeof value === 'string') {
      if (isUnstorableText(value)) return pathOf(step);
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) {
        pending.push({ value: value[index], key: String(index), parent: step });
      }
    } else if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
      const entries = Object.entries(value);
      for (const [key] of entries) {
        if (isUnstorableText(key)) return `${pathOf(step)}/${JSON.stringify(key)}`;
      }
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, item] = entries[index] as [string, unknown];
        pending.push({ value: item, key, parent: step });
      }
    }
  }
  return undefined;
}

/** A preHandler hook: refuses (400) an admin body holding text that cannot be stored as sent. */
export async function refuseUnstorableText(request: FastifyRequest): Promise<void> {
  const path = unstorableTextPath(request.body);
  if (path !== undefined) throw badRequest(`${path}: text must be valid Unicode without NUL characters`);
}
