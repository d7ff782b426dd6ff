/**
 * Brotli or gzip for the answers nothing compressed ahead (the console's assets, the admin API's
 * JSON, long errors), and request bodies sent with a Content-Encoding decompressed before they are
 * parsed (docs/architecture.md#compression). The read cache's answers come compressed already
 * (pipeline/read-cache.ts) and go out as they are. In place of @fastify/compress, whose check for a
 * fetch Response loaded Node's fetch into every worker at its first answer
 * (docs/memory.md#built-in-modules).
 */
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream';
import {
  constants,
  createBrotliCompress,
  createBrotliDecompress,
  createGunzip,
  createGzip,
  createInflate,
  type BrotliOptions,
} from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../lib/errors.js';
import { addVary, compressBody, compressFrom, preferredEncoding, type Encoding } from '../pipeline/read-cache.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: answers go out as the route made them (a file's bytes, counted by ranges). */
    compress?: false;
    /** false: the body reaches the route as sent, Content-Encoding and all (an upload checks it). */
    decompress?: false;
  }
}

// Brotli 4 and gzip 6 keep answers made per request fast; the site's hashed assets are
// compressed ahead of time at build, and cached answers once at the best quality.
const perRequestLevels = { quality: 4, level: 6 };
const brotliOptions: BrotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: perRequestLevels.quality } };

/** Text, JSON, JavaScript, XML and SVG: what compresses. Pictures, fonts and packages are
 * compressed already. */
const compressibleType =
  /^(?:text\/|application\/(?:json|javascript|ecmascript|xml|x-javascript)\b|application\/[\w.-]+\+(?:json|xml)\b|image\/svg\+xml\b)/i;

const isStream = (payload: unknown): payload is Readable =>
  typeof payload === 'object' && payload !== null && typeof (payload as Readable).pipe === 'function';

/** The size of what the route sent, or of the file a stream reads when the route said; Infinity
 * when unknown. */
function sizeOf(payload: unknown, reply: FastifyReply): number {
  if (typeof payload === 'string') return Buffer.byteLength(payload);
  if (Buffer.isBuffer(payload)) return payload.length;
  const length = reply.getHeader('content-length');
  return length === undefined ? Number.POSITIVE_INFINITY : Number(length);
}

function compressedStream(encoding: Encoding): Transform {
  return encoding === 'br' ? createBrotliCompress(brotliOptions) : createGzip({ level: perRequestLevels.level });
}

function compress(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: Error | null, payload?: unknown) => void,
): void {
  if (
    payload === null ||
    payload === undefined ||
    request.method === 'HEAD' ||
    reply.statusCode === 204 ||
    reply.statusCode === 304 ||
    // A range counts bytes of the answer as it is.
    reply.statusCode === 206 ||
    reply.hasHeader('content-range') ||
    // Asked for by name, as @fastify/compress took it: the answer as the route made it.
    request.headers['x-no-compression'] !== undefined ||
    reply.hasHeader('content-encoding') ||
    !compressibleType.test(String(reply.getHeader('content-type') ?? '')) ||
    !(typeof payload === 'string' || Buffer.isBuffer(payload) || isStream(payload)) ||
    sizeOf(payload, reply) < compressFrom
  ) {
    done(null, payload);
    return;
  }
  addVary(reply, 'accept-encoding');
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  if (encoding === undefined) {
    done(null, payload);
    return;
  }
  reply.header('content-encoding', encoding).removeHeader('content-length');
  if (isStream(payload)) {
    // An error reading the source ends the answer's stream, which Fastify reports.
    done(
      null,
      pipeline(payload, compressedStream(encoding), () => {}),
    );
    return;
  }
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  compressBody(body, encoding, perRequestLevels).then((out) => done(null, out), done);
}

const decompressors: Record<string, () => Transform> = {
  br: createBrotliDecompress,
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
};

/** A decompressing stream Fastify checks against the request's Content-Length by the bytes that
 * came in, not the bytes that came out. */
type Decompressing = Transform & { receivedEncodedLength: number };

function decompress(
  request: FastifyRequest,
  _reply: FastifyReply,
  payload: Readable,
  done: (error: Error | null, payload?: Readable) => void,
): void {
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  if (encoding === undefined || encoding === '' || encoding === 'identity') {
    done(null, payload);
    return;
  }
  const make = decompressors[encoding];
  if (make === undefined) {
    done(
      new HttpError(
        415,
        `a body sent with content-encoding ${encoding} cannot be read: send br, gzip, deflate or none`,
        { code: 'unsupported_type' },
      ),
    );
    return;
  }
  const decompressing = Object.assign(make(), { receivedEncodedLength: 0 }) as Decompressing;
  payload.on('data', (chunk: Buffer) => {
    decompressing.receivedEncodedLength += chunk.length;
  });
  // Heard before Fastify's parser hears it: a body that does not decompress is the client's mistake.
  decompressing.on('error', (error: Error & { statusCode?: number }) => {
    error.message = `the body does not decompress as its content-encoding ${encoding} says: ${error.message}`;
    error.statusCode = 400;
  });
  done(
    null,
    pipeline(payload, decompressing, () => {}),
  );
}

const asList = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

/** Adds both to every route registered after it: compression as the route's last onSend hook, so
 * that it sends what every other hook made of the answer, and decompression as its first
 * preParsing hook. */
export function compression(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (route.config?.compress !== false) route.onSend = [...asList(route.onSend), compress];
    if (route.config?.decompress !== false) route.preParsing = [decompress, ...asList(route.preParsing)];
  });
}
