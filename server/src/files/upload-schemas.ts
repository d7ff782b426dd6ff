/**
 * What the OpenAPI document says of the resumable upload routes (uploads.ts). For the document
 * only: @tus/server reads the requests and writes the answers itself, so Fastify validates and
 * serializes nothing here. Its refusals carry our {status, msg} (docs/releases.md#resumable-uploads).
 */
import { HostedFile } from '@chat-site/contract/admin';
import { errorResponse } from '../lib/schemas.js';

const hosted = {
  ...HostedFile,
  description: 'The last byte is in: the file is hosted (its key also in Upload-File-Key)',
};
const noBody = (description: string) => ({ type: 'null', description });
const tusResumable = errorResponse('The Tus-Resumable: 1.0.0 header is missing');
const unknown = errorResponse('No upload has this id (finished, cancelled or never started)');
const expired = errorResponse('The upload expired (UPLOAD_EXPIRY_HOURS) and was removed');
const refused = errorResponse('The finished file is not an install package of the type its name says');

export const uploadSchemas = {
  create: {
    operationId: 'createUpload',
    summary: 'Start a resumable upload of an install package (tus creation, Upload-Metadata filename)',
    response: {
      201: noBody('The upload is started; Location names it'),
      400: errorResponse(
        'Upload-Length or Upload-Metadata is missing or invalid, or filename is not an install package',
      ),
      412: tusResumable,
      413: errorResponse('Upload-Length is over PACKAGE_MAX_BYTES'),
    },
  },
  offset: {
    operationId: 'getUploadOffset',
    summary: 'How many bytes of an upload the server has (Upload-Offset)',
    response: {
      200: noBody('Upload-Offset and Upload-Length say how far it is'),
      404: noBody('No upload has this id'),
      410: noBody('The upload expired and was removed'),
      412: noBody('The Tus-Resumable: 1.0.0 header is missing'),
    },
  },
  append: {
    operationId: 'appendUpload',
    summary: 'Send the next bytes of an upload, from Upload-Offset',
    response: {
      200: hosted,
      204: noBody('The bytes are stored; Upload-Offset says how many there are now'),
      400: refused,
      403: errorResponse(
        'Content-Type is not application/offset+octet-stream or Upload-Offset is missing; or, as for every admin call, the session may not do this',
      ),
      404: unknown,
      409: errorResponse("Upload-Offset is not the server's offset: ask for it with HEAD"),
      410: expired,
      412: tusResumable,
      413: errorResponse('The bytes go past Upload-Length'),
      507: errorResponse('The file storage is full'),
    },
  },
  cancel: {
    operationId: 'cancelUpload',
    summary: 'Cancel an unfinished upload and remove its bytes',
    response: {
      204: noBody('The upload is removed'),
      404: unknown,
      412: tusResumable,
    },
  },
};
