import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { notFound } from '../lib/errors.js';
import type { RouteDeps } from '../pipeline/deps.js';
import { errorResponse } from '../lib/schemas.js';
import { storageFor } from '../storage/index.js';
import { S3Storage } from '../storage/s3-store.js';
import { s3AccelRedirect } from './accel-s3.js';
import { contentDisposition, httpDate, ifRangeHolds, notModified, parseRange } from './conditional.js';
import { blockmapOf } from '../packages/repository.js';
import { cleanFileName, findFile } from './repository.js';

// Hosted files are shown by <img> or downloaded; nothing in them may ever run as a page.
const fileCsp = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * `GET`/`HEAD /v1/file/preview/:key`, streamed from the file storage: one range at a time
 * (several ranges are answered with the whole file), conditional requests, and caching forever,
 * since a key is its content's hash. Neither compressed (a range counts bytes of the file) nor
 * hashed for an ETag by the plugins: the ETag is the file's SHA-256.
 *
 * With FILES_ACCEL_REDIRECT the bytes are the proxy's to send: the answer carries the headers and
 * `X-Accel-Redirect` to the proxy's internal location over the file store, which then does the
 * range and If-Range itself (docs/storage.md#nginx-sends-the-files). 304 stays here: nginx
 * compares If-None-Match before the ETag passed on to it is in place. Over S3 the range, If-Range
 * and 416 are decided here too, and the proxy fetches the object with a presigned URL
 * (docs/storage.md#with-s3).
 */
export const fileRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  const storage = storageFor(config.storage);
  const accelPrefix = config.filesAccelRedirect;
  const preview = (method: 'GET' | 'HEAD', operationId: string, summary: string) => ({
    method,
    url: '/file/preview/:key',
    exposeHeadRoute: false,
    // Documented on its own, like the upload's HEAD.
    config: { compress: false as const, swagger: { exposeHeadRoute: true } },
    schema: {
      operationId,
      summary,
      params: Type.Object({ key: Type.String({ maxLength: 200 }) }),
      response: previewResponses,
    },
  });
  app.route({
    ...preview('GET', 'getFile', 'A hosted file: install package or picture, whole or one byte range'),
    handler: serve,
  });
  app.route({ ...preview('HEAD', 'headFile', "A hosted file's headers, without its bytes"), handler: serve });

  /** An electron payload's blockmap, asked by electron-updater next to the payload
   * (docs/releases.md#update-payloads), is sent on to where it is stored. */
  async function blockmapRedirect(key: string, reply: FastifyReply): Promise<FastifyReply> {
    const payload = key.endsWith('.blockmap') ? key.slice(0, -'.blockmap'.length) : undefined;
    const target = payload === undefined ? undefined : await blockmapOf(db.kysely, payload);
    if (target === undefined) throw notFound('file');
    const hosted = /^file\/preview\/([^/?#]+)$/.exec(target)?.[1];
    // Not kept by caches: another release may give the same payload another blockmap.
    return reply.header('cache-control', 'no-cache').redirect(hosted === undefined ? target : hosted, 302);
  }

  async function serve(
    request: FastifyRequest<{ Params: { key: string } }>,
    reply: FastifyReply,
  ): Promise<FastifyReply> {
    const file = await findFile(db.kysely, request.params.key);
    if (file === undefined) return blockmapRedirect(request.params.key, reply);
    const size = Number(file.size);
    const etag = `"${file.sha256}"`;
    const lastModified = httpDate(file.created_at);
    const cacheHeaders = {
      etag,
      'last-modified': lastModified,
      'cache-control': 'public, max-age=31536000, immutable',
      'accept-ranges': 'bytes',
    };
    if (notModified(request.headers, etag, lastModified)) return reply.status(304).headers(cacheHeaders).send();
    const inline = file.content_type.startsWith('image/');
    const fileHeaders = {
      'content-type': file.content_type,
      'content-security-policy': fileCsp,
      'content-disposition': contentDisposition(inline ? 'inline' : 'attachment', file.name, cleanFileName(file.name)),
    };

    // Without Accept-Ranges: the proxy's answer has its own, and a second one from here would go out too.
    const proxiedHeaders = {
      etag,
      'last-modified': lastModified,
      'cache-control': cacheHeaders['cache-control'],
      ...fileHeaders,
    };
    if (accelPrefix !== undefined && !(storage instanceof S3Storage)) {
      // nginx does the range and If-Range itself, reading the directory.
      return proxied(request, reply, file.key, proxiedHeaders, async () => ({
        'x-accel-redirect': `${accelPrefix}${file.key}`,
      }));
    }

    let answer = parseRange(request.headers.range, size);
    if (answer.kind !== 'whole' && !ifRangeHolds(firstValue(request.headers['if-range']), etag, lastModified)) {
      answer = { kind: 'whole' };
    }
    if (answer.kind === 'unsatisfiable') {
      return reply
        .status(416)
        .headers({ 'content-range': `bytes */${size}`, 'accept-ranges': 'bytes' })
        .send({ status: 416, msg: `the range is past the end of the file (${size} bytes)` });
    }
    const range = answer.kind === 'partial' ? answer.range : undefined;
    if (accelPrefix !== undefined && storage instanceof S3Storage) {
      const method = request.method === 'HEAD' ? 'HEAD' : 'GET';
      return proxied(request, reply, file.key, proxiedHeaders, () =>
        s3AccelRedirect(accelPrefix, storage, file.key, method, range),
      );
    }
    const length = range === undefined ? size : range.end - range.start + 1;
    const body = request.method === 'HEAD' ? undefined : await storage.open(file.key, range);
    if (request.method !== 'HEAD' && body === undefined) return missing(request, file.key);
    reply
      .status(range === undefined ? 200 : 206)
      .headers(cacheHeaders)
      .headers(fileHeaders)
      .header('content-length', String(length));
    if (range !== undefined) reply.header('content-range', `bytes ${range.start}-${range.end}/${size}`);
    return reply.send(body);
  }

  /** The headers alone and X-Accel-Redirect, for the proxy to send the bytes. The file is looked
   * for first, so that one missing from the store is the same logged 404 as without the proxy. */
  async function proxied(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    headers: Record<string, string>,
    redirect: () => Promise<Record<string, string>>,
  ): Promise<FastifyReply> {
    if ((await storage.stat(key)) === undefined) return missing(request, key);
    return reply
      .status(200)
      .headers(headers)
      .headers(await redirect())
      .send();
  }

  function missing(request: FastifyRequest, key: string): never {
    request.log.error({ key, storage: storage.description }, 'hosted file missing from the storage');
    throw notFound('file');
  }
};

/** For the OpenAPI document only: the bytes go out as they are, never serialized. */
const fileBytes = { content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } };
const previewResponses = {
  200: { description: 'The whole file; its ETag is its SHA-256, kept for a year', ...fileBytes },
  206: { description: 'The one byte range asked for (Range, when If-Range still holds)', ...fileBytes },
  302: {
    type: 'null',
    description: "`{key}.blockmap` of an electron update payload: to the release's blockmap (Location)",
    headers: { location: { type: 'string', description: 'Where the blockmap is stored' } },
  },
  304: { type: 'null', description: 'Not modified: If-None-Match or If-Modified-Since matched' },
  404: errorResponse('No hosted file has this key'),
  416: errorResponse('The range starts past the end of the file; Content-Range names its size'),
};

function firstValue(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header[0] : header;
}
