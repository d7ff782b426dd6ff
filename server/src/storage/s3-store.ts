import { randomUUID } from 'node:crypto';
import { pipeline, Transform, type Readable } from 'node:stream';
import type * as S3 from '@aws-sdk/client-s3';
import type * as S3LibStorage from '@aws-sdk/lib-storage';
import type * as S3Presigner from '@aws-sdk/s3-request-presigner';
import type { StorageTarget } from '../config.js';
import { lazy } from '../lib/lazy.js';
import { feed, Intake } from './intake.js';
import type { ByteRange, FileStorage, IntakeRules, StagedFile } from './types.js';

type S3Target = Extract<StorageTarget, { kind: 's3' }>;

/** The AWS SDK, loaded when an S3 store is opened: a server on a directory never loads it
 * (lib/lazy.ts). */
const sdk = lazy<typeof S3>('@aws-sdk/client-s3');
const sdkStorage = lazy<typeof S3LibStorage>('@aws-sdk/lib-storage');
const sdkPresigner = lazy<typeof S3Presigner>('@aws-sdk/s3-request-presigner');

/** Parts of a multipart upload: at most queueSize of them are held in memory at once. */
const partSize = 8 * 1024 * 1024;
const queueSize = 2;

/**
 * Objects in an S3-compatible bucket, under the configured prefix. An upload goes to a
 * temporary key (multipart, so it streams) and is copied to its final key only once complete and
 * hashed; the temporary object is then deleted. Downloads stream through the server
 * (docs/storage.md#s3-downloads-go-through-the-server), or the proxy fetches them with a
 * presigned URL (docs/storage.md#with-s3).
 */
export class S3Storage implements FileStorage {
  readonly description: string;
  private readonly client: S3.S3Client;

  constructor(private readonly target: S3Target) {
    this.description = `s3://${target.bucket}/${target.prefix}`;
    this.client = new (sdk().S3Client)({
      region: target.region,
      endpoint: target.endpoint,
      forcePathStyle: target.forcePathStyle,
      credentials: target.credentials,
      // Checksums only where S3 requires them: the default adds CRC32 trailers that several
      // S3-compatible services do not accept. Integrity is ours anyway: every file is SHA-256'd.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async stage(body: Readable, rules: IntakeRules, contentType: string): Promise<StagedFile> {
    const temporary = `${this.target.prefix}.incoming/${randomUUID()}`;
    const intake = new Intake(rules);
    const upload = new (sdkStorage().Upload)({
      client: this.client,
      params: { Bucket: this.target.bucket, Key: temporary, Body: intake, ContentType: contentType },
      partSize,
      queueSize,
      leavePartsOnError: false,
    });
    // The intake's own error (a refusal, a cut connection) is the one to report, not the
    // SDK's account of a stream that broke under it.
    let intakeError: unknown;
    intake.once('error', (error) => (intakeError ??= error));
    try {
      feed(body, intake);
      await upload.done();
      if (intakeError !== undefined) throw intakeError;
    } catch (error) {
      intake.destroy();
      await upload.abort().catch(() => undefined);
      await this.deleteObject(temporary).catch(() => undefined);
      throw intakeError ?? error;
    }
    return {
      size: intake.received,
      sha256: intake.sha256,
      sha512: intake.sha512,
      commit: async (key) => {
        try {
          if ((await this.stat(key)) === undefined) {
            await this.client.send(
              new (sdk().CopyObjectCommand)({
                Bucket: this.target.bucket,
                Key: this.objectKey(key),
                CopySource: `${this.target.bucket}/${temporary}`,
                ContentType: contentType,
                MetadataDirective: 'REPLACE',
              }),
            );
          }
        } finally {
          await this.deleteObject(temporary).catch(() => undefined);
        }
      },
      discard: () => this.deleteObject(temporary),
    };
  }

  async open(key: string, range?: ByteRange): Promise<Readable | undefined> {
    try {
      const answer = await this.client.send(
        new (sdk().GetObjectCommand)({
          Bucket: this.target.bucket,
          Key: this.objectKey(key),
          Range: range === undefined ? undefined : `bytes=${range.start}-${range.end}`,
        }),
      );
      const body = answer.Body as Readable;
      if (range === undefined) return body;
      // A service that answers more than the range (s3rver ignores bytes=0-0 and sends the whole
      // object) must not make us send more bytes than Content-Length says.
      const answeredStart = Number(/^bytes (\d+)-/.exec(answer.ContentRange ?? '')?.[1] ?? 0);
      // pipeline, not pipe: a download the visitor abandons closes the S3 answer too.
      return pipeline(body, byteWindow(range.start - answeredStart, range.end - range.start + 1), () => undefined);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number } | undefined> {
    try {
      const head = await this.client.send(
        new (sdk().HeadObjectCommand)({ Bucket: this.target.bucket, Key: this.objectKey(key) }),
      );
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** A URL that lets whoever holds it, and no one after `seconds`, GET (or HEAD) the object
   * without credentials: signed here, with nothing asked of the store. */
  async presign(key: string, method: 'GET' | 'HEAD', seconds: number): Promise<URL> {
    const input = { Bucket: this.target.bucket, Key: this.objectKey(key) };
    const command = method === 'HEAD' ? new (sdk().HeadObjectCommand)(input) : new (sdk().GetObjectCommand)(input);
    return new URL(await sdkPresigner().getSignedUrl(this.client, command, { expiresIn: seconds }));
  }

  async delete(key: string): Promise<void> {
    await this.deleteObject(this.objectKey(key));
  }

  /** Lists at most one object under the prefix: proves the bucket exists, answers, and these
   * credentials may list there (s3:ListBucket on AWS). A HEAD of a missing object would not do: its
   * 404 looks the same for a missing bucket. */
  async check(): Promise<void> {
    await this.client.send(
      new (sdk().ListObjectsV2Command)({ Bucket: this.target.bucket, Prefix: this.target.prefix, MaxKeys: 1 }),
    );
  }

  async anyKey(): Promise<string | undefined> {
    let token: string | undefined;
    do {
      const listed = await this.client.send(
        new (sdk().ListObjectsV2Command)({
          Bucket: this.target.bucket,
          Prefix: this.target.prefix,
          ContinuationToken: token,
        }),
      );
      const key = (listed.Contents ?? [])
        .map((object) => (object.Key ?? '').slice(this.target.prefix.length))
        .find((name) => name !== '' && !name.startsWith('.'));
      if (key !== undefined) return key;
      token = listed.IsTruncated === true ? listed.NextContinuationToken : undefined;
    } while (token !== undefined);
    return undefined;
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private objectKey(key: string): string {
    if (key.includes('/') || key.startsWith('.')) throw new Error(`not a file key: ${key}`);
    return `${this.target.prefix}${key}`;
  }

  private async deleteObject(objectKey: string): Promise<void> {
    await this.client.send(new (sdk().DeleteObjectCommand)({ Bucket: this.target.bucket, Key: objectKey }));
  }
}

function isMissing(error: unknown): boolean {
  return (
    error instanceof sdk().S3ServiceException &&
    (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)
  );
}

/** Passes on `take` bytes after skipping `skip`, then ends. */
function byteWindow(skip: number, take: number): Transform {
  let position = 0;
  const end = skip + take;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const from = Math.max(skip - position, 0);
      const to = Math.min(end - position, chunk.byteLength);
      position += chunk.byteLength;
      done(null, from < to ? chunk.subarray(from, to) : undefined);
    },
  });
}
