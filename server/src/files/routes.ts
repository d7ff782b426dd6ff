import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf, audit } from '../accounts/door.js';
import {
  FileInUse,
  FileKeyParams,
  FilePage,
  FileQuery,
  HostedFile,
  NoContent,
  UploadQuery,
} from '@chat-site/contract/admin';
import { badRequest, HttpError, notFound } from '../lib/errors.js';
import type { RouteDeps } from '../pipeline/deps.js';
import { errorResponse } from '../lib/schemas.js';
import { imageTypes, packageTypes, uploadKindOf } from './content-types.js';
import {
  describeUsers,
  fileUsers,
  keyPattern,
  listFilePage,
  removeFile,
  storeFile,
  type FileUser,
} from './repository.js';
import { IntakeError, StorageFullError, storageFor, UploadCutError } from '../storage/index.js';

const uploadContentTypes = [
  ...new Set([...Object.values(imageTypes), ...Object.values(packageTypes), 'application/octet-stream']),
];

export const fileAdminRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  const storage = storageFor(config.storage);
  // The body is left unread in the request stream (request.raw), for the handler to send to
  // storage as it comes. It is not handed over as request.body: the admin hooks walk that.
  app.addContentTypeParser(uploadContentTypes, (_request, _payload, done) => done(null, undefined));

  app.post(
    '/files',
    {
      // Editors upload the pictures of their announcements; packages are for admins (below).
      config: { access: 'editor', decompress: false },
      schema: {
        operationId: 'uploadFile',
        summary: 'Host a picture or an install package, streamed in the body',
        querystring: UploadQuery,
        response: {
          201: HostedFile,
          403: errorResponse('An editor may upload pictures only; install packages need an admin'),
          413: errorResponse('The file is larger than the limit for its kind'),
          415: errorResponse(
            'The body is sent with a Content-Encoding, or with a Content-Type this call does not take',
          ),
          507: errorResponse('The file storage is full'),
        },
      },
    },
    async (request, reply) => {
      // A refused upload's body is not read (nor drained by Node, up to PACKAGE_MAX_BYTES): the
      // connection closes after the answer. Only a stored file keeps it open.
      reply.header('connection', 'close');
      const contentType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      const kind = uploadKindOf(request.query.name, ['image', 'package']);
      if (kind === undefined) {
        const allowed = [...Object.keys(imageTypes), ...Object.keys(packageTypes)].join(', ');
        throw badRequest(`the file name's extension is not one of ${allowed}`, { code: 'bad_file_type' });
      }
      if (kind.kind === 'package' && request.operator?.kind === 'user' && request.operator.role !== 'admin') {
        throw new HttpError(403, 'uploading an install package needs an admin account');
      }
      const octets = kind.kind === 'package' && contentType === 'application/octet-stream';
      if (contentType !== kind.contentType && !octets) {
        throw badRequest(`the file name's extension does not match the content type ${contentType}`, {
          code: 'bad_file_type',
        });
      }
      const encoding = request.headers['content-encoding'];
      if (encoding !== undefined && encoding !== 'identity') {
        throw new HttpError(415, `a file is uploaded as it is, not with content-encoding ${encoding}`);
      }
      const maxBytes = kind.kind === 'image' ? config.uploadMaxBytes : config.packageMaxBytes;
      if (Number(request.headers['content-length'] ?? 0) > maxBytes) {
        throw new HttpError(413, `the file is larger than the limit of ${maxBytes} bytes`, {
          code: 'too_large',
          limit: maxBytes,
          size: Number(request.headers['content-length']),
        });
      }
      const body: Readable = request.raw;
      try {
        const stored = await storeFile(db.kysely, storage, {
          name: request.query.name,
          contentType: kind.contentType,
          body,
          rules: { maxBytes, checkHead: kind.checkHead, checkTail: kind.checkTail },
          uploadedBy: actorOf(request),
        });
        await audit(db, request, { action: 'file.upload', target: stored.key, after: stored });
        reply.removeHeader('connection');
        return await reply.status(201).send(stored);
      } catch (error) {
        if (error instanceof IntakeError) {
          const tooLarge = error.statusCode === 413 && { code: 'too_large' as const, limit: maxBytes };
          throw new HttpError(error.statusCode, error.message, tooLarge || {});
        }
        if (error instanceof StorageFullError) {
          request.log.error({ err: error }, 'file storage full');
          return reply.status(507).send({ status: 507, msg: error.message });
        }
        if (error instanceof UploadCutError) throw badRequest(error.message);
        throw error;
      }
    },
  );

  app.get(
    '/files',
    {
      schema: {
        operationId: 'listFiles',
        summary: 'One page of the hosted files, newest first, with what uses each',
        querystring: FileQuery,
        response: { 200: FilePage },
      },
    },
    async (request) => {
      const { count, rows } = await listFilePage(db.kysely, {
        index: request.query.page_index,
        size: request.query.page_size,
      });
      const list = await Promise.all(
        rows.map(async (row) => ({
          key: row.key,
          path: `file/preview/${row.key}`,
          name: row.name,
          content_type: row.content_type,
          size: Number(row.size),
          sha256: row.sha256,
          created_at: row.created_at,
          uploaded_by: row.uploaded_by,
          used_by: (await fileUsers(db.kysely, row.key)).map(userLabel),
        })),
      );
      return { count, list };
    },
  );

  app.delete(
    '/files/:key',
    {
      schema: {
        operationId: 'deleteFile',
        summary: 'Remove a hosted file that nothing uses any more',
        params: FileKeyParams,
        response: {
          204: NoContent,
          404: errorResponse('No hosted file has this key'),
          409: FileInUse,
        },
      },
    },
    async (request, reply) => {
      if (!keyPattern.test(request.params.key)) throw notFound('file');
      const result = await removeFile(db.kysely, storage, request.params.key);
      if (result === undefined) throw notFound('file');
      if (!result.removed) {
        return reply.status(409).send({
          status: 409,
          msg: `the file is still used by ${describeUsers(result.users)}; change or remove them first`,
          code: 'in_use',
          used_by: result.users.map(userLabel),
        });
      }
      await audit(db, request, { action: 'file.remove', target: request.params.key });
      return reply.status(204).send(null);
    },
  );
};

/** "package:android", "bulletin:12". */
function userLabel(user: FileUser): string {
  return user.kind === 'package' ? `package:${user.os}` : `bulletin:${user.id}`;
}
