/** Streaming in and out of tar-stream's entries with backpressure, never holding a whole file. */
import { createHash } from 'node:crypto';
import type { Pack } from 'tar-stream';

/** A file's bytes that did not add up to what was promised. */
export class EntryMismatchError extends Error {
  override name = 'EntryMismatchError';
}

/**
 * Adds one entry of `size` bytes from `source` and answers the SHA-256 of what was written. The
 * header carries the size first, so a source that turns out longer or shorter (or, with
 * `sha256`, different) fails the entry: the caller then throws the whole archive away.
 */
export async function addEntry(
  pack: Pack,
  header: { name: string; size: number; mtime: Date },
  source: AsyncIterable<Buffer | Uint8Array>,
  expect: { what: string; sha256?: string },
): Promise<string> {
  let settle: { resolve: () => void; reject: (error: Error) => void } | undefined;
  const written = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  // Nobody awaits it before the end; a failure meanwhile is thrown by the write loop instead.
  written.catch(() => undefined);
  // 0600: an extracted users.jsonl holds password hashes (docs/backups.md#file-permissions).
  const entry = pack.entry({ ...header, type: 'file', mode: 0o600 }, (error) =>
    error ? settle?.reject(error) : settle?.resolve(),
  );
  // Its failures arrive through the callback above; as an event with no listener they would be
  // thrown again, outside anyone's reach.
  entry.on('error', () => undefined);
  const hash = createHash('sha256');
  let seen = 0;
  for await (const chunk of source) {
    seen += chunk.byteLength;
    if (seen > header.size)
      throw new EntryMismatchError(`${expect.what} is larger than the ${header.size} bytes recorded`);
    hash.update(chunk);
    if (!entry.write(chunk)) await drained(entry);
  }
  if (seen !== header.size) {
    throw new EntryMismatchError(`${expect.what} has ${seen} bytes, not the ${header.size} recorded`);
  }
  const sha256 = hash.digest('hex');
  if (expect.sha256 !== undefined && sha256 !== expect.sha256) {
    throw new EntryMismatchError(`${expect.what} does not match the SHA-256 recorded for it`);
  }
  entry.end(undefined);
  await written;
  return sha256;
}

/** A writable stream of Node's or of streamx's (tar-stream's), as far as waiting on it goes. */
interface Emitter {
  on(event: 'drain' | 'close' | 'error', listener: (error?: Error) => void): unknown;
  off(event: 'drain' | 'close' | 'error', listener: (error?: Error) => void): unknown;
}

/** Resolves once `stream` can take more, or will never again (closed); rejects on its error. */
export function drained(stream: Emitter): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      stream.off('drain', done);
      stream.off('error', failed);
      stream.off('close', done);
    };
    const done = () => {
      cleanup();
      resolve();
    };
    const failed = (error?: Error) => {
      cleanup();
      reject(error ?? new Error('the stream failed'));
    };
    stream.on('drain', done);
    stream.on('error', failed);
    stream.on('close', done);
  });
}
