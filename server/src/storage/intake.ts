import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Transform, type TransformCallback } from 'node:stream';
import { headBytes, IntakeError, tailBytes, UploadCutError, type IntakeRules } from './types.js';

/**
 * The stream every upload passes through on its way to storage: it counts and hashes the bytes (SHA-256 and SHA-512),
 * stops at the size limit, and holds back the first bytes until they pass the type check, so a
 * refused file never reaches the storage at all. Memory: the head (4 KiB) and the tail (512 B).
 */
export class Intake extends Transform {
  /** Bytes received so far. (Not `size`: the S3 uploader reads a body's size as its length.) */
  received = 0;
  private readonly hash = createHash('sha256');
  /** For the desktop apps' update info, which names files by SHA-512 (docs/releases.md#update-checks). */
  private readonly hash512 = createHash('sha512');
  private held: Buffer[] = [];
  private heldBytes = 0;
  private headChecked = false;
  private tail = Buffer.alloc(0);
  private digest: string | undefined;
  private digest512: string | undefined;

  constructor(private readonly rules: IntakeRules) {
    super();
  }

  get sha256(): string {
    this.digest ??= this.hash.digest('hex');
    return this.digest;
  }

  /** Base64, as electron-updater reads it. */
  get sha512(): string {
    this.digest512 ??= this.hash512.digest('base64');
    return this.digest512;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.received += chunk.byteLength;
    if (this.received > this.rules.maxBytes) {
      done(new IntakeError(413, `the file is larger than the limit of ${this.rules.maxBytes} bytes`));
      return;
    }
    this.hash.update(chunk);
    this.hash512.update(chunk);
    if (this.rules.checkTail !== undefined) {
      this.tail =
        chunk.byteLength >= tailBytes
          ? Buffer.from(chunk.subarray(chunk.byteLength - tailBytes))
          : Buffer.concat([this.tail, chunk]).subarray(-tailBytes);
    }
    if (this.headChecked) {
      done(null, chunk);
      return;
    }
    this.held.push(chunk);
    this.heldBytes += chunk.byteLength;
    done(this.heldBytes >= headBytes ? this.releaseHead() : null);
  }

  override _flush(done: TransformCallback): void {
    if (this.received === 0 && this.rules.allowEmpty !== true) {
      done(new IntakeError(400, 'the body is empty'));
      return;
    }
    const refused = this.headChecked ? undefined : this.releaseHead();
    if (refused !== undefined) {
      done(refused);
      return;
    }
    const reason = this.rules.checkTail?.(this.tail);
    done(reason === undefined ? null : new IntakeError(400, reason));
  }

  /** Checks the held bytes and passes them on; answers the refusal, if any. */
  private releaseHead(): IntakeError | undefined {
    this.headChecked = true;
    const held = Buffer.concat(this.held);
    this.held = [];
    const reason = this.rules.checkHead?.(held.subarray(0, headBytes));
    if (reason !== undefined) return new IntakeError(400, reason);
    this.push(held);
    return undefined;
  }
}

/** Feeds `body` into `intake` without ever destroying `body` (its connection may still carry an
 * answer): a body that ends early or fails destroys the intake instead. */
export function feed(body: Readable, intake: Intake): void {
  const cut = (error?: Error) => {
    body.unpipe(intake);
    intake.destroy(error instanceof Error && !isAbort(error) ? error : new UploadCutError());
  };
  body.once('error', cut);
  body.once('aborted', () => cut());
  body.once('close', () => {
    if (!body.readableEnded) cut();
  });
  // A refused or failed intake stops reading; what the client still sends is not kept.
  intake.once('error', () => body.unpipe(intake));
  body.pipe(intake);
}

function isAbort(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ECONNRESET' || code === 'ECONNABORTED' || error.message === 'aborted';
}
