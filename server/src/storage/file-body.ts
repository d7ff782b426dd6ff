import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { ServerResponse } from '../lib/node-http.js';

/** Bytes per read, an eighth of the reads of Node's 64 KiB; two of these per download are all it
 * holds, so forty slow downloads still hold little memory (docs/performance.md#npm-run-benchfiles). */
export const chunkBytes = 512 * 1024;

/**
 * The bytes `start` to `end` (inclusive) of an open file. Read like any stream, each chunk is a
 * new buffer. Piped into an HTTP answer, which is how a download is sent, it instead reads into
 * two buffers in turn, each reused once the socket has taken what was written from it: a 100 MB
 * package then allocates 1 MB, not 100 MB that the garbage collector must then free (it took a
 * quarter of the server's time, profiled in docs/performance.md#npm-run-benchfiles), and the next
 * read overlaps the last write.
 */
export class FileBody extends Readable {
  private position: number;

  constructor(
    private readonly handle: FileHandle,
    start: number,
    private readonly end: number,
  ) {
    super({ highWaterMark: chunkBytes });
    this.position = start;
  }

  override _read(size: number): void {
    const length = Math.min(size, chunkBytes, this.end - this.position + 1);
    if (length <= 0) {
      this.push(null);
      return;
    }
    this.handle.read(Buffer.allocUnsafe(length), 0, length, this.position).then(
      ({ bytesRead, buffer }) => {
        if (bytesRead === 0) return this.destroy(new Error('the file is shorter than its stored size'));
        this.position += bytesRead;
        this.push(buffer.subarray(0, bytesRead));
      },
      (error: Error) => this.destroy(error),
    );
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.handle.close().then(
      () => done(error),
      () => done(error),
    );
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    if (!(destination instanceof ServerResponse) || options?.end === false) return super.pipe(destination, options);
    let left = false;
    destination.once('close', () => (left = !destination.writableFinished));
    this.sendTo(destination, () => left).then(
      () => {
        if (this.destroyed || left) return;
        destination.end();
        // Ends this stream too, as a piped one would: whoever waits for its end sees it.
        this.push(null);
        this.resume();
      },
      // A client that left is no error (a piped file stream is just closed then, too); a file
      // that cannot be read is, and cuts the answer.
      (error: Error) => this.destroy(left ? undefined : error),
    );
    return destination;
  }

  private async sendTo(response: ServerResponse, left: () => boolean): Promise<void> {
    const buffers = [Buffer.allocUnsafeSlow(chunkBytes), Buffer.allocUnsafeSlow(chunkBytes)];
    // A buffer is free again once the socket's write of it called back; a client that left
    // settles the wait too (its writes may never call back).
    const taken: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
    const gone = new Promise((done) => response.once('close', done));
    for (let turn = 0; this.position <= this.end; turn ^= 1) {
      const buffer = buffers[turn] as Buffer;
      await Promise.race([taken[turn], gone]);
      if (this.destroyed || left()) return;
      const length = Math.min(chunkBytes, this.end - this.position + 1);
      const { bytesRead } = await this.handle.read(buffer, 0, length, this.position);
      if (bytesRead === 0) throw new Error('the file is shorter than its stored size');
      this.position += bytesRead;
      taken[turn] = new Promise((done, fail) =>
        response.write(buffer.subarray(0, bytesRead), (error) => (error ? fail(error) : done(undefined))),
      );
      taken[turn]?.catch(() => undefined);
    }
    await Promise.race([Promise.all(taken), gone]);
  }
}
