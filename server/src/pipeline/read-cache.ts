/**
 * Public reads answered from memory (API answers, feeds, the sitemap): each answer is serialized
 * once (with its route's response schema), given an ETag, and compressed once per encoding on
 * first demand, until a write makes it stale (see db/changes.ts). Bounded in bytes (keys and a
 * per-entry overhead included) and in entries, least recently used out first (nearly: see #touch).
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ContentChanges } from '../db/changes.js';
import { readCacheCounts } from '../lib/metrics.js';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type Encoding = 'br' | 'gzip';

/** `body` in `encoding`: brotli at `quality` (0–11) in text mode, told the size ahead, or gzip at
 * `level` (1–9). The read cache's answers and the answers compressed per request
 * (plugins/compression.ts) both go through here. */
export function compressBody(
  body: Buffer,
  encoding: Encoding,
  { quality, level }: { quality: number; level: number },
): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: quality,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzipAsync(body, { level });
}

/** Below this an answer goes out as it is: compressing saves less than it costs. */
export const compressFrom = 1024;

/**
 * How hard to compress an answer. 'best' is for answers many clients share: done once, it can
 * afford more than compression per request. 'quick' is for answers few share, one for each
 * address a feed is asked at, say, where 'best' would let every new Host header buy that effort
 * again.
 */
export type Effort = 'best' | 'quick';

/** An answer as held, for the fast path that replays it (pipeline/fast-path.ts). */
export type { Answer };

/**
 * What sendAnswer chose for a request whose key follows from its URL alone (sendForUrl), left on
 * the raw request for the fast path to record once the reply has gone (pipeline/fast-path.ts).
 */
export const answeredFromCache = Symbol('answered from the read cache');

export interface AnsweredFromCache {
  key: string;
  answer: Answer;
}

declare module 'node:http' {
  interface IncomingMessage {
    [answeredFromCache]?: AnsweredFromCache;
  }
}

class Answer {
  readonly etag: string;
  /** Content-Type and ETag, set on every reply of this answer. */
  readonly headers: Record<string, string>;
  /** Over the threshold: sent compressed to clients that take it, so it varies by Accept-Encoding. */
  readonly compressible: boolean;
  readonly #compressed = new Map<Encoding, Promise<Buffer>>();
  /** The compressed copies already made, to send without waiting a turn for a settled promise. */
  readonly #ready = new Map<Encoding, Buffer>();
  /** The cache's count of moves when this answer last went to the back of its order (ReadCache#touch). */
  movedAt = 0;

  constructor(
    readonly body: Buffer,
    readonly type: string,
    readonly generation: number,
    private readonly effort: Effort,
    private readonly onCompressed: (answer: Answer, bytes: number) => void,
  ) {
    this.etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    this.headers = { 'content-type': type, etag: this.etag };
    this.compressible = body.length >= compressFrom;
  }

  /** The copy in `encoding` when it is made already. */
  compressedCopy(encoding: Encoding): Buffer | undefined {
    return this.#ready.get(encoding);
  }

  compressed(encoding: Encoding): Promise<Buffer> {
    let pending = this.#compressed.get(encoding);
    if (pending === undefined) {
      pending = compressBody(this.body, encoding, {
        quality: this.#brotliQuality(),
        level: this.effort === 'best' ? 6 : 4,
      });
      this.#compressed.set(encoding, pending);
      void pending.then(
        (data) => {
          this.#ready.set(encoding, data);
          this.onCompressed(this, data.length);
        },
        () => this.#compressed.delete(encoding),
      );
    }
    return pending;
  }

  /** The page, the first thing a phone loads, gets the most (about 60 ms for it). */
  #brotliQuality(): number {
    if (this.effort === 'quick') return 4;
    if (this.body.length > 512 * 1024) return 5;
    return this.type.startsWith('text/html') ? 11 : 9;
  }
}

export interface ReadCacheOptions {
  changes: ContentChanges;
  /** 0 turns caching off: every read is produced afresh. */
  maxBytes: number;
  /** Most answers held at once, however small (default 20,000). */
  maxEntries?: number;
}

/**
 * What an answer costs beyond its bytes: the Answer and its ETag, the key twice (two maps) and the
 * map entries. Measured with `npm run bench:cache-memory` at about 750 bytes for a tiny answer;
 * rounded up, so that many tiny answers cannot hold far more memory than maxBytes says.
 */
export const entryOverheadBytes = 1024;

export class ReadCache {
  readonly #changes: ContentChanges;
  readonly #maxBytes: number;
  readonly #maxEntries: number;
  readonly #answers = new Map<string, Answer>();
  readonly #sizes = new Map<Answer, number>();
  /** Reads being produced, so that a burst of misses for one key queries the database once. */
  readonly #producing = new Map<string, Promise<Answer>>();
  #bytes = 0;
  /** Answers put at the back of #answers so far: stored, or moved there when read. */
  #moves = 0;

  constructor({ changes, maxBytes, maxEntries = 20_000 }: ReadCacheOptions) {
    this.#changes = changes;
    this.#maxBytes = maxBytes;
    this.#maxEntries = maxEntries;
  }

  /** Bytes held now: bodies, their compressed copies, keys and each entry's overhead. */
  get size(): number {
    return this.#bytes;
  }

  /** Answers held now. */
  get entries(): number {
    return this.#answers.size;
  }

  /**
   * Text made once per state of the content and shared by several answers, such as a feed built
   * with originMark that every origin it is asked at fills in (lib/origin.ts). Held and evicted
   * like an answer.
   */
  async text(key: string, produce: () => Promise<string>): Promise<string> {
    const answer = await this.#answer(undefined, key, produce, 'text/plain; charset=utf-8', 'quick');
    return answer.body.toString('utf8');
  }

  /**
   * Sends the answer for `key`: from memory when it is still current, else from `produce`
   * (whose errors propagate as usual). `key` must name everything the answer depends on. The
   * answer is JSON written with the route's response schema, unless `type` is given: then
   * `produce` answers the text to send as that content type.
   */
  send(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    produce: () => Promise<unknown>,
    type?: string,
    effort: Effort = 'best',
  ): FastifyReply | Promise<FastifyReply> {
    return this.#send(request, reply, key, produce, type, effort, false);
  }

  /**
   * `send` for a JSON answer whose key follows from the request's URL (path and query) alone,
   * never from other headers: then the same URL may be answered again from the same entry before
   * routing, while it is current (pipeline/fast-path.ts).
   */
  sendForUrl(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    produce: () => Promise<unknown>,
  ): FastifyReply | Promise<FastifyReply> {
    return this.#send(request, reply, key, produce, undefined, 'best', true);
  }

  /** The answer held for `key` when it is `answer` and still current (made most recently used). */
  holds(key: string, answer: Answer): boolean {
    return this.#current(key) === answer;
  }

  #send(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    produce: () => Promise<unknown>,
    type: string | undefined,
    effort: Effort,
    byUrl: boolean,
  ): FastifyReply | Promise<FastifyReply> {
    const urlKey = byUrl ? key : undefined;
    // A current answer held in memory goes out in this turn; only a miss waits for `produce`.
    const held = this.#current(key);
    if (held !== undefined) {
      readCacheCounts.hits++;
      return sendAnswer(request, reply, held, urlKey);
    }
    return this.#answer(reply, key, produce, type, effort).then((answer) => sendAnswer(request, reply, answer, urlKey));
  }

  /** The answer held for `key` when it is still current, made most recently used. */
  #current(key: string): Answer | undefined {
    const held = this.#answers.get(key);
    if (held === undefined || this.#maxBytes === 0) return undefined;
    if (held.generation !== this.#changes.generation() || !this.#changes.trustworthy()) return undefined;
    this.#touch(key, held);
    return held;
  }

  /**
   * Makes `held` recently used: eviction takes from the front of #answers, so a read moves its
   * answer to the back. Not when fewer than half the entries went behind it since its last move:
   * it is in the newer half already, and a hot key read thousands of times a second then costs
   * no delete and insert each time (the Map shrank and rehashed on those).
   */
  #touch(key: string, held: Answer): void {
    if (this.#moves - held.movedAt <= this.#answers.size >> 1) return;
    this.#answers.delete(key);
    this.#answers.set(key, held);
    held.movedAt = ++this.#moves;
  }

  async #answer(
    reply: FastifyReply | undefined,
    key: string,
    produce: () => Promise<unknown>,
    type: string | undefined,
    effort: Effort,
  ): Promise<Answer> {
    const generation = this.#changes.generation();
    const caching = this.#maxBytes > 0 && this.#changes.trustworthy();
    if (!caching) {
      readCacheCounts.misses++;
      return this.#make(reply, await produce(), type, generation, effort);
    }
    const held = this.#answers.get(key);
    if (held !== undefined) {
      if (held.generation === generation) {
        readCacheCounts.hits++;
        this.#touch(key, held);
        return held;
      }
      this.#drop(key, held);
    }
    // A read joining one already being produced waits for the database too: a miss.
    readCacheCounts.misses++;
    const flightKey = `${generation}\u0000${key}`;
    let flight = this.#producing.get(flightKey);
    if (flight === undefined) {
      flight = produce().then((value) => this.#make(reply, value, type, generation, effort));
      this.#producing.set(flightKey, flight);
      void flight.then(
        (answer) => {
          this.#producing.delete(flightKey);
          // Content changed while this was read: it may be stale, so it is used once and not kept.
          if (this.#changes.generation() === generation) this.#keep(key, answer);
        },
        () => this.#producing.delete(flightKey),
      );
    }
    return flight;
  }

  #make(
    reply: FastifyReply | undefined,
    value: unknown,
    type: string | undefined,
    generation: number,
    effort: Effort,
  ): Answer {
    const serialized = type === undefined && reply !== undefined ? reply.serialize(value) : String(value);
    const body = typeof serialized === 'string' ? Buffer.from(serialized) : Buffer.from(serialized as Uint8Array);
    const onCompressed = (answer: Answer, bytes: number) => this.#grow(answer, bytes);
    return new Answer(body, type ?? 'application/json; charset=utf-8', generation, effort, onCompressed);
  }

  #keep(key: string, answer: Answer): void {
    if (answer.body.length > this.#maxBytes / 4) return;
    const previous = this.#answers.get(key);
    if (previous !== undefined) this.#drop(key, previous);
    this.#answers.set(key, answer);
    answer.movedAt = ++this.#moves;
    this.#sizes.set(answer, 0);
    this.#grow(answer, answer.body.length + key.length * 2 + entryOverheadBytes);
  }

  #grow(answer: Answer, bytes: number): void {
    const size = this.#sizes.get(answer);
    if (size === undefined) return; // already dropped
    this.#sizes.set(answer, size + bytes);
    this.#bytes += bytes;
    for (const [key, oldest] of this.#answers) {
      if (this.#bytes <= this.#maxBytes && this.#answers.size <= this.#maxEntries) break;
      this.#drop(key, oldest);
    }
  }

  #drop(key: string, answer: Answer): void {
    this.#answers.delete(key);
    this.#bytes -= this.#sizes.get(answer) ?? 0;
    this.#sizes.delete(answer);
  }
}

/** `urlKey`: the key, when it follows from the URL alone (sendForUrl). */
function sendAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: Answer,
  urlKey: string | undefined,
): FastifyReply | Promise<FastifyReply> {
  reply.headers(answer.headers);
  if (answer.compressible) addVary(reply, 'accept-encoding');
  const { notModified, encoding } = choose(request.method, request.headers, answer);
  if (urlKey !== undefined) {
    request.raw[answeredFromCache] = { key: urlKey, answer };
  }
  if (notModified) return reply.code(304).send();
  if (encoding === undefined) return reply.send(answer.body);
  reply.header('content-encoding', encoding);
  const ready = answer.compressedCopy(encoding);
  if (ready !== undefined) return reply.send(ready);
  return answer.compressed(encoding).then((data) => reply.send(data));
}

/** Whether `answer` goes out as 304 to these request headers, and else in which encoding. */
export function choose(
  method: string,
  headers: IncomingHttpHeaders,
  answer: Answer,
): { notModified: boolean; encoding: Encoding | undefined } {
  if (matches(headers['if-none-match'], answer.etag)) return { notModified: true, encoding: undefined };
  // HEAD gets the headers of the uncompressed answer: there is no body to decode.
  const encoding = answer.compressible && method !== 'HEAD' ? preferredEncoding(headers['accept-encoding']) : undefined;
  return { notModified: false, encoding };
}

/** Adds `name` to the reply's Vary, keeping what the route set there (the page varies by language
 * too: page/routes.ts). Lower case, as plugins/compression.ts looks for it. */
export function addVary(reply: FastifyReply, name: string): void {
  const held = reply.getHeader('vary');
  if (held === undefined || held === '') {
    reply.header('vary', name);
    return;
  }
  const names = (Array.isArray(held) ? held.join(',') : String(held))
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (!names.some((part) => part.toLowerCase() === name.toLowerCase())) names.push(name);
  reply.header('vary', names.join(', '));
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const bare = etag.slice(2);
  return ifNoneMatch.split(',').some((tag) => {
    const candidate = tag.trim();
    return candidate === '*' || candidate === etag || candidate === bare;
  });
}

/** Accept-Encoding values seen lately and what they chose: clients send a handful of them. */
const chosen = new Map<string, Encoding | undefined>();
const chosenMax = 256;

/** br over gzip when the client takes both; neither when it refuses them (q=0) or names none. */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (acceptEncoding === undefined) return undefined;
  if (chosen.has(acceptEncoding)) return chosen.get(acceptEncoding);
  const encoding = negotiate(acceptEncoding);
  if (chosen.size >= chosenMax) chosen.clear();
  chosen.set(acceptEncoding, encoding);
  return encoding;
}

function negotiate(acceptEncoding: string): Encoding | undefined {
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    const q = params.find((param) => param.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}
