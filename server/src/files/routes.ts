import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { badRequest, notFound } from '../lib/errors.js';
import type { RouteDeps } from '../lib/deps.js';
import { errorResponses } from '../lib/schemas.js';
import { extensionOf, imageTypes, looksLikeImage } from './content-types.js';
import { findFile, storeFile } from './repository.js';

// Hosted files are shown by <img> or downloaded; nothing in them may ever run as a page.
const fileCsp = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

export const fileRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/file/preview/:key',
    { schema: { params: Type.Object({ key: Type.String({ maxLength: 200 }) }) } },
    async (request, reply) => {
      const file = await findFile(db.kysely, request.params.key);
      if (file === undefined) throw notFound('file');
      const inline = file.content_type.startsWith('image/');
      return reply
        .header('content-type', file.content_type)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('etag', `"${file.sha256}"`)
        .header('content-security-policy', fileCsp)
        .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename="${file.name}"`)
        .send(Buffer.from(file.data));
    },
  );
};

export const fileAdminRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  const uploadTypes = [...new Set(Object.values(imageTypes))];
  app.addContentTypeParser(
    uploadTypes,
    { parseAs: 'buffer', bodyLimit: config.uploadMaxBytes },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/files',
    {
      bodyLimit: config.uploadMaxBytes,
      schema: {
        querystring: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200, pattern: '^[^/\\\\]+$' }) }),
        response: {
          201: Type.Object({ key: Type.String(), path: Type.String(), size: Type.Integer(), sha256: Type.String() }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const contentType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      const data = request.body as Buffer;
      if (imageTypes[extensionOf(request.query.name)] !== contentType) {
        throw badRequest(`the file name's extension does not match the content type ${contentType}`);
      }
      if (data.byteLength === 0 || !looksLikeImage(contentType, data)) {
        throw badRequest(`the body is not a ${contentType} image`);
      }
      const stored = await storeFile(db.kysely, { name: request.query.name, contentType, data });
      return reply.status(201).send(stored);
    },
  );
};
