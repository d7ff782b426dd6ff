import type { Readable } from 'node:stream';

/** What an upload must satisfy while it streams in; a breach stops it and stores nothing. */
export interface IntakeRules {
  maxBytes: number;
  /** Uploads may not be empty; files already stored (moved by a migration) may be. */
  allowEmpty?: boolean;
  /** Sees the first bytes (up to `headBytes`, fewer for a shorter file) before any byte is
   * stored; answers why the file is refused, or undefined. */
  checkHead?: (head: Buffer) => string | undefined;
  /** Sees the last `tailBytes` bytes once the whole file is in, before it becomes visible. */
  checkTail?: (tail: Buffer) => string | undefined;
}

export const headBytes = 4096;
export const tailBytes = 512;

/** A file received whole and hashed, not yet visible under any key. */
export interface StagedFile {
  size: number;
  sha256: string;
  /** Base64. */
  sha512: string;
  /** Makes it visible under `key`, atomically: readers see nothing or the whole file. */
  commit(key: string): Promise<void>;
  /** Throws it away. */
  discard(): Promise<void>;
}

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

/** Where hosted files' bytes live; the database keeps what they are (files/repository.ts). Keys
 * are file keys (keyPattern): no slashes, never starting with a dot. */
export interface FileStorage {
  /** For logs and messages: file:<dir> or s3://<bucket>/<prefix>, never a secret. */
  readonly description: string;
  /** Receives a stream while hashing and counting it. Rejects with IntakeError when the rules
   * refuse it, StorageFullError when there is no room, and with the stream's own error when it
   * is cut off; in every case nothing is left behind. Never destroys `body` itself: the caller
   * may still answer on the connection it came from. */
  stage(body: Readable, rules: IntakeRules, contentType: string): Promise<StagedFile>;
  /** The bytes of a file, whole or one range; undefined when there is no such file. */
  open(key: string, range?: ByteRange): Promise<Readable | undefined>;
  stat(key: string): Promise<{ size: number } | undefined>;
  /** Where the file is on this machine's disk, for stores that keep files there (readers that
   * need random access, like the APK version reader, then need no copy). */
  localPath?(key: string): string;
  /** Removes a file; a file that is already gone is not an error. */
  delete(key: string): Promise<void>;
  /** Resolves when files could be stored and read now, else rejects saying why; cheap enough for
   * a readiness probe every few seconds (docs/monitoring.md#health-checks). */
  check(): Promise<void>;
  /** Some key the storage holds, or undefined when it holds none (temporary uploads aside):
   * a restore goes only into an empty storage. */
  anyKey(): Promise<string | undefined>;
  close(): Promise<void>;
}

/** The upload broke a rule: too large, empty, or not the type it claims. */
export class IntakeError extends Error {
  constructor(
    readonly statusCode: 400 | 413,
    message: string,
  ) {
    super(message);
    this.name = 'IntakeError';
  }
}

/** The storage has no room left (ENOSPC, EDQUOT); answered 507. */
export class StorageFullError extends Error {
  constructor(where: string) {
    super(`the file storage (${where}) is full; nothing was stored`);
    this.name = 'StorageFullError';
  }
}

/** The body ended before the client finished sending it. */
export class UploadCutError extends Error {
  constructor() {
    super('the upload was cut off before it was complete; nothing was stored');
    this.name = 'UploadCutError';
  }
}
