/**
 * Answers a public read again without Fastify when Fastify has just answered the same URL from the
 * read cache (docs/architecture.md#how-a-request-flows-through-the-server): once a GET or HEAD of a URL went out from a
 * cached entry whose key follows from the URL alone (ReadCache.sendForUrl), its status and headers
 * are recorded with the entry, and the next request for that exact URL, while the entry is
 * current, gets them and the entry's bytes straight from the 'request' event, skipping routing,
 * hooks and reply machinery that would only produce them again. Anything else (a URL not seen, an
 * entry gone stale, a 304 or an encoding not sent yet for it) goes to Fastify unchanged.
 *
 * Replies that skip Fastify skip its onResponse hook too: the request line and the metrics of a
 * replay come from the ReplayObserver given here, the same observer that hook calls
 * (ops/request-observer.ts).
 */
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ContentChanges } from '../db/changes.js';
import { answeringError } from './client-errors.js';
import { answeredFromCache, choose, type Answer, type Encoding, type ReadCache } from './read-cache.js';
import { replayOnSockets, replyHead, type ReplaySource, type RequestHead } from './replay-connections.js';

/** The generation of content when a request reached Fastify: its answer is replayed only if the
 * content did not change while the route worked out its key. */
const generationAtArrival = Symbol('generation at arrival');

declare module 'node:http' {
  interface IncomingMessage {
    [generationAtArrival]?: number;
  }
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Replay {
  status: number;
  /** Names and values in turn, as writeHead takes them: no object to walk for each reply. */
  headers: string[];
  /** The route pattern Fastify matched, for the metrics. */
  route: string;
  /** Made at its first replay on a socket; false when the reply sets a header Node otherwise
   * adds itself (Date, Connection …): then only the 'request' event replays it. */
  socket?: { head: Buffer; addLength: boolean } | false;
}

interface Found {
  key: string;
  answer: Answer;
  replay: Replay;
  body: Buffer | undefined;
}

/** Headers Node's ServerResponse would leave out of its own when a reply sets them. */
const addedByNode = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** The bytes pipeline/replay-connections.ts writes for `replay`, or false when Node would write others. */
function socketReady(replay: Replay): { head: Buffer; addLength: boolean } | false {
  let addLength = true;
  for (let i = 0; i < replay.headers.length; i += 2) {
    const name = replay.headers[i]?.toLowerCase() ?? '';
    if (addedByNode.has(name)) return false;
    if (name === 'content-length') addLength = false;
  }
  return { head: replyHead(replay.status, replay.headers), addLength };
}

/** Told of every reply sent without Fastify, with the time it took, to log and meter it as
 * Fastify's onResponse hook does the others (ops/request-observer.ts). */
export type ReplayObserver = (req: RequestHead, status: number, route: string, ms: number) => void;

export interface FastPathOptions {
  /** Replies remembered at most, all URLs together (each a header list of about a kilobyte);
   * all are forgotten when one more comes. */
  maxReplays?: number;
  observe?: ReplayObserver;
}

interface Entry {
  key: string;
  /** Weakly: an answer the cache has dropped must not stay in memory for a URL's sake. */
  answer: WeakRef<Answer>;
  /**
   * By the whole Accept-Encoding ('' when none), as the reply it was recorded from was negotiated, then
   * by variantOf: each is recorded from a reply Fastify sent.
   */
  replays: Map<string, Map<string, Replay>>;
  /** Replays held for this URL, all Accept-Encodings together. */
  count: number;
}

/** Replays kept for one URL at most: one for each Accept-Encoding clients send, say. */
const maxReplaysPerUrl = 32;

/** The method, and 304 or the encoding the cache sends: made once, so a lookup builds no string. */
const variants: Record<string, Record<Encoding | 'identity' | '304', string>> = {
  GET: { '304': 'GET 304', br: 'GET br', gzip: 'GET gzip', identity: 'GET identity' },
  HEAD: { '304': 'HEAD 304', br: 'HEAD br', gzip: 'HEAD gzip', identity: 'HEAD identity' },
};

/** What tells apart the replies Fastify sends for one entry and one Accept-Encoding. */
function variantOf(method: string, notModified: boolean, encoding: Encoding | undefined): string | undefined {
  return variants[method]?.[notModified ? '304' : (encoding ?? 'identity')];
}

/** The headers of a reply as names and values in turn; a list value gives its name once for each. */
function flatHeaders(headers: Record<string, string | number | readonly string[] | undefined>): string[] {
  const flat: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) flat.push(name, item);
    else flat.push(name, String(value));
  }
  return flat;
}

export class FastPath {
  readonly #cache: ReadCache;
  readonly #changes: ContentChanges;
  readonly #maxReplays: number;
  readonly #observe: ReplayObserver | undefined;
  #fastify: Handler = () => {
    throw new Error('the fast path is not installed');
  };
  readonly #urls = new Map<string, Entry>();
  /** Replays held, all URLs together. */
  #replays = 0;
  #open = true;
  #replayed = 0;
  #replayedOnSockets = 0;

  constructor(cache: ReadCache, changes: ContentChanges, { maxReplays = 10_000, observe }: FastPathOptions = {}) {
    this.#cache = cache;
    this.#changes = changes;
    this.#maxReplays = maxReplays;
    this.#observe = observe;
  }

  /** Replies sent without Fastify so far (tests). */
  get replayed(): number {
    return this.#replayed;
  }

  /** Of those, the replies written to the socket without Node's HTTP server (tests). */
  get replayedOnSockets(): number {
    return this.#replayedOnSockets;
  }

  /** URLs remembered now (tests). */
  get size(): number {
    return this.#urls.size;
  }

  /**
   * Puts the fast path in front of the Fastify handler of `server`, and with `onSockets` in front
   * of Node's HTTP parser on new connections too (pipeline/replay-connections.ts).
   */
  install(server: Server, { onSockets = true }: { onSockets?: boolean } = {}): void {
    const handlers = server.listeners('request') as Handler[];
    const [fastify] = handlers;
    if (handlers.length !== 1 || fastify === undefined) throw new Error('expected one request handler (Fastify)');
    server.removeListener('request', fastify);
    this.#fastify = fastify;
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (!this.answer(req, res)) this.#toFastify(req, res);
    });
    if (onSockets) replayOnSockets(server, this.#onSockets);
  }

  /** From now on every request goes to Fastify, which answers the way a closing server does. */
  close(): void {
    this.#open = false;
    this.#forget();
  }

  /**
   * Takes `req` when a reply recorded for it may still be current, and answers true; false leaves
   * `req` to Fastify. Whether the entry is current is asked where one reading of the content's
   * generation serves every request read so far (ContentChanges.afterReads): on SQLite, after the
   * turn's network reads, so that data_version is read once for all of them.
   */
  answer(req: IncomingMessage, res: ServerResponse): boolean {
    const found = this.#lookup(req.method ?? '', req.url ?? '', req.headers);
    if (found === undefined) return false;
    const { key, answer, replay, body } = found;
    const started = this.#observe === undefined ? 0 : performance.now();
    this.#changes.afterReads(() => {
      // Its body held bytes Node cannot read, found since: the error's answer, which ends the
      // connection, is the one it gets, as when that answer went out before this turn came.
      if (!req.complete && answeringError(req.socket)) return;
      if (!this.#current(key, answer)) {
        this.#toFastify(req, res);
        return;
      }
      this.#replayed += 1;
      res.writeHead(replay.status, replay.headers);
      res.end(body);
      this.#observe?.(req, replay.status, replay.route, performance.now() - started);
    });
    return true;
  }

  /** The same replies for pipeline/replay-connections.ts, which writes them to the socket itself. */
  readonly #onSockets: ReplaySource = {
    find: (request) => {
      const found = this.#lookup(request.method ?? '', request.url ?? '', request.headers);
      if (found === undefined) return undefined;
      const { key, answer, replay, body } = found;
      replay.socket ??= socketReady(replay);
      if (replay.socket === false) return undefined;
      const { head, addLength } = replay.socket;
      const started = this.#observe === undefined ? 0 : performance.now();
      return {
        head,
        body,
        addLength,
        current: () => this.#current(key, answer),
        sent: () => {
          this.#replayed += 1;
          this.#replayedOnSockets += 1;
          this.#observe?.(request, replay.status, replay.route, performance.now() - started);
        },
      };
    },
    afterReads: (task) => this.#changes.afterReads(task),
    open: () => this.#open,
  };

  /** The entry a replay was found in is still the cache's, and the fast path still open. */
  #current(key: string, answer: Answer): boolean {
    return this.#open && this.#cache.holds(key, answer);
  }

  #lookup(method: string, url: string, headers: IncomingHttpHeaders): Found | undefined {
    if ((method !== 'GET' && method !== 'HEAD') || !this.#open) return undefined;
    // Such answers go out uncompressed (plugins/compression.ts): Fastify sends them.
    if (headers['x-no-compression'] !== undefined) return undefined;
    const entry = this.#urls.get(url);
    const answer = entry?.answer.deref();
    if (entry === undefined || answer === undefined) return undefined;
    const { notModified, encoding } = choose(method, headers, answer);
    const variant = variantOf(method, notModified, encoding);
    const replay =
      variant === undefined ? undefined : entry.replays.get(headers['accept-encoding'] ?? '')?.get(variant);
    if (replay === undefined) return undefined;
    let body: Buffer | undefined;
    if (!notModified && method !== 'HEAD') {
      body = encoding === undefined ? answer.body : answer.compressedCopy(encoding);
      if (body === undefined) return undefined;
    }
    return { key: entry.key, answer, replay, body };
  }

  #toFastify(req: IncomingMessage, res: ServerResponse): void {
    req[generationAtArrival] = this.#changes.generation();
    this.#fastify(req, res);
  }

  #forget(): void {
    this.#urls.clear();
    this.#replays = 0;
  }

  /** Called once Fastify's reply has gone: remembers it when it may be replayed. */
  record(request: FastifyRequest, reply: FastifyReply): void {
    const raw = request.raw;
    const answered = raw[answeredFromCache];
    if (answered === undefined || !this.#open) return;
    const status = reply.statusCode;
    if (status !== 200 && status !== 304) return;
    const { key, answer } = answered;
    // Content that changed while the route worked out the key may have changed the key too.
    if (raw[generationAtArrival] !== answer.generation || !this.#cache.holds(key, answer)) return;
    const { notModified, encoding } = choose(raw.method ?? '', raw.headers, answer);
    // Replayed with the entry's own bytes: only when those were what went out.
    if (!notModified && raw.method === 'GET' && reply.getHeader('content-encoding') !== encoding) return;
    const url = raw.url ?? '';
    let entry = this.#urls.get(url);
    if (entry === undefined || entry.answer.deref() !== answer || entry.key !== key) {
      if (entry !== undefined) this.#replays -= entry.count;
      entry = { key, answer: new WeakRef(answer), replays: new Map(), count: 0 };
      this.#urls.set(url, entry);
    }
    const variant = variantOf(raw.method ?? '', notModified, encoding);
    const acceptEncoding = raw.headers['accept-encoding'] ?? '';
    if (variant === undefined || entry.count >= maxReplaysPerUrl) return;
    if (entry.replays.get(acceptEncoding)?.has(variant) === true) return;
    if (this.#replays >= this.#maxReplays) {
      this.#forget();
      this.#urls.set(url, entry);
      entry.replays.clear();
      entry.count = 0;
    }
    let forEncoding = entry.replays.get(acceptEncoding);
    if (forEncoding === undefined) {
      forEncoding = new Map();
      entry.replays.set(acceptEncoding, forEncoding);
    }
    this.#replays += 1;
    entry.count += 1;
    forEncoding.set(variant, {
      status,
      headers: flatHeaders(reply.getHeaders()),
      route: request.routeOptions.url ?? '',
    });
  }
}
