/**
 * Resumable uploads of install packages with the tus protocol (1.0.0, with its creation,
 * creation-with-upload, termination and expiration extensions), under /v1/admin/uploads, for
 * the console's tus-js-client (docs/releases.md#resumable-uploads).
 *
 * An upload is kept on this server's disk (@tus/file-store, UPLOAD_DIR) while its chunks come in,
 * however many requests and cuts that takes. Once its last byte is in, it is streamed from there
 * through the same intake as every upload (size limit, type check of its first and last bytes,
 * SHA-256 computed as it streams) into the file storage, whichever it is, and becomes a hosted
 * file; the staged copy is removed. The answer to that last request carries the hosted file
 * (`{key, path, size, sha256}`, and the key in `Upload-File-Key`), whose key POST
 * /v1/admin/releases takes. Uploads left unfinished are removed UPLOAD_EXPIRY_HOURS after they
 * were started.
 *
 * The routes sit behind the admin door like every admin route (admin only; a change made with
 * the session cookie must come from the console's own origin), and Fastify never parses their
 * bodies: @tus/server reads the request stream itself.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileStore } from '@tus/file-store';
import type { Server, ServerOptions } from '@tus/server';
import type { Upload } from '@tus/utils';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, audit } from '../accounts/door.js';
import { codeForStatus } from '../lib/error-codes.js';
import type { RouteDeps } from '../pipeline/deps.js';
import { notFound } from '../lib/errors.js';
import { IntakeError, StorageFullError, storageFor } from '../storage/index.js';
import { closeToOthers, privateDir, privateFile } from '../storage/private-files.js';
import { packageTypes, uploadKindOf } from './content-types.js';
import { storeFile } from './repository.js';
import { uploadSchemas } from './upload-schemas.js';

export const uploadsPath = '/v1/admin/uploads';

/** What @tus/server answers when a hook throws one: our usual {status, msg}, as text. */
interface TusRefusal {
  status_code: number;
  body: string;
}

/** With the admin API's code (docs/admin-api.md#error-codes): these answers skip its hooks. */
const refusal = (status: number, msg: string): TusRefusal => ({
  status_code: status,
  body: JSON.stringify({ status, msg, code: codeForStatus(status) }),
});

/** The ids this server gives uploads: 16 random bytes in hex. Anything else in a URL names no
 * upload (it could name an upload's metadata file, `<id>.json`, or a path). */
const uploadIdPattern = /^[0-9a-f]{32}$/;
const newUploadId = () => randomBytes(16).toString('hex');

/** Removes the uploads in `dir` started longer than `expiryMs` ago and still unfinished, and data
 * files whose metadata is gone that were last written as long ago; answers how many. */
export async function removeExpiredUploads(dir: string, expiryMs: number): Promise<number> {
  const { FileStore } = await import('@tus/file-store');
  const expired = await new FileStore({ directory: dir, expirationPeriodInMilliseconds: expiryMs }).deleteExpired();
  return expired + (await removeOrphans(dir, Date.now() - expiryMs));
}

/** Data files without their `<id>.json`, last written before `before`: nothing can resume or
 * expire them any more (docs/releases.md#resumable-uploads). */
async function removeOrphans(dir: string, before: number): Promise<number> {
  const names = await readdir(dir).catch(() => []);
  const present = new Set(names);
  let removed = 0;
  for (const name of names) {
    if (!uploadIdPattern.test(name) || present.has(`${name}.json`)) continue;
    const facts = await stat(join(dir, name)).catch(() => undefined);
    if (facts === undefined || !facts.isFile() || facts.mtimeMs >= before) continue;
    await unlink(join(dir, name)).catch(() => undefined);
    removed++;
  }
  return removed;
}

export const uploadAdminRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db, config }) => {
  const storage = storageFor(config.storage);
  // The request each tus call serves, for the hooks @tus/server calls with its own request type.
  const requests = new AsyncLocalStorage<FastifyRequest>();
  let tus: Promise<Server> | undefined;
  let sweeper: NodeJS.Timeout | undefined;

  const onUploadCreate: ServerOptions['onUploadCreate'] = async (_req, upload) => {
    const name = upload.metadata?.filename ?? '';
    if (uploadKindOf(name, ['package']) === undefined) {
      const allowed = Object.keys(packageTypes).join(', ');
      throw refusal(400, `Upload-Metadata filename must name an install package (${allowed}); got "${name}"`);
    }
    return {};
  };

  const onUploadFinish = async (upload: Upload, store: FileStore) => {
    const request = requests.getStore();
    const name = upload.metadata?.filename ?? '';
    const kind = uploadKindOf(name, ['package']);
    try {
      if (request === undefined || kind === undefined) throw refusal(400, 'the upload has no install package name');
      const stored = await storeFile(db.kysely, storage, {
        name,
        contentType: kind.contentType,
        body: store.read(upload.id),
        rules: { maxBytes: config.packageMaxBytes, checkHead: kind.checkHead, checkTail: kind.checkTail },
        uploadedBy: actorOf(request),
      });
      await audit(db, request, { action: 'file.upload', target: stored.key, after: { ...stored, upload: upload.id } });
      return { status_code: 200, headers: { 'Upload-File-Key': stored.key }, body: JSON.stringify(stored) };
    } catch (error) {
      if (error instanceof IntakeError) throw refusal(error.statusCode, error.message);
      if (error instanceof StorageFullError) throw refusal(507, error.message);
      throw error;
    } finally {
      // Stored or refused, the staged copy has served its purpose: a refused file stays refused.
      await store.remove(upload.id).catch(() => undefined);
    }
  };

  /** Made at the first upload, so that a server nobody uploads to never creates UPLOAD_DIR nor
   * loads @tus/server (docs/memory.md#what-keeps-a-worker-under-90-mb). */
  const tusServer = (): Promise<Server> => (tus ??= createTusServer());
  const createTusServer = async (): Promise<Server> => {
    const [{ FileStore }, { Server }] = await Promise.all([import('@tus/file-store'), import('@tus/server')]);
    // Unreleased packages: the folder 0700 and each staged file and its record 0600, whatever
    // the umask (docs/backups.md#file-permissions). @tus/file-store makes them with the default.
    await mkdir(config.uploadDir, { recursive: true, mode: privateDir });
    await closeToOthers(config.uploadDir);
    class PrivateFileStore extends FileStore {
      override async create(upload: Upload): Promise<Upload> {
        const made = await super.create(upload);
        const path = join(config.uploadDir, upload.id);
        await Promise.all([chmod(path, privateFile), chmod(`${path}.json`, privateFile)]);
        return made;
      }
    }
    const datastore = new PrivateFileStore({
      directory: config.uploadDir,
      expirationPeriodInMilliseconds: config.uploadExpiryMs,
    });
    const server = new Server({
      path: uploadsPath,
      datastore,
      maxSize: config.packageMaxBytes,
      namingFunction: newUploadId,
      // The routes below let only such ids through; this keeps @tus/server to them as well.
      getFileIdFromRequest: (_req, id) => (id !== undefined && uploadIdPattern.test(id) ? id : undefined),
      relativeLocation: true,
      respectForwardedHeaders: false,
      // Same-origin only: no cross-origin page is told it may call the admin API.
      allowedOrigins: () => false,
      onUploadCreate,
      onUploadFinish: (_req, upload) => onUploadFinish(upload, datastore),
      onResponseError: (_req, error) => {
        if ('status_code' in error && error.body.startsWith('{')) return undefined;
        if ('status_code' in error) return refusal(error.status_code, error.body.trim());
        app.log.error({ err: error }, 'resumable upload failed');
        return refusal(500, 'internal server error');
      },
    });
    const sweep = () =>
      void removeExpiredUploads(config.uploadDir, config.uploadExpiryMs).catch((error: unknown) =>
        app.log.warn({ err: error }, 'removing expired uploads failed'),
      );
    sweep();
    sweeper = setInterval(sweep, Math.min(config.uploadExpiryMs / 4, 3_600_000));
    sweeper.unref();
    return server;
  };
  app.addHook('onClose', async () => clearInterval(sweeper));

  // The bodies of PATCH (and of a POST that carries the first bytes) stay in the request stream
  // for @tus/server to read.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null, undefined));

  // GET would serve an upload's bytes back; nothing needs it. OPTIONS is the admin API's own.
  app.post('/uploads', { schema: uploadSchemas.create }, handle);
  // Only the ids this server makes reach @tus/server: any other is a 404 that touches nothing.
  const checked = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    if (!uploadIdPattern.test(request.params.id)) throw notFound('upload');
    await handle(request, reply);
  };
  const upload = { url: '/uploads/:id', exposeHeadRoute: false, handler: checked };
  app.route({
    method: 'HEAD',
    schema: uploadSchemas.offset,
    config: { swagger: { exposeHeadRoute: true } },
    ...upload,
  });
  app.route({ method: 'PATCH', schema: uploadSchemas.append, ...upload });
  app.route({ method: 'DELETE', schema: uploadSchemas.cancel, ...upload });

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const tus = await tusServer();
    reply.hijack();
    await requests.run(request, () => tus.handle(request.raw, reply.raw));
  }
};
