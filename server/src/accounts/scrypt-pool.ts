/**
 * Where scrypt runs: worker threads of this process, one per core, never libuv's thread pool
 * (four threads by default), which opens and reads every hosted file; and at most two per core
 * at once, running or waiting for a thread, in the whole process. One more is refused at once
 * (PasswordChecksBusy) rather than queued, so no number of sign-ins can hold up other requests
 * or pile up work (docs/console.md#sign-in-limits).
 */
import type { ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

export class PasswordChecksBusy extends Error {
  constructor() {
    super('too many password checks at once');
    this.name = 'PasswordChecksBusy';
  }
}

// Inline, so that the bundled command line (scripts/bundle-admin.mjs) needs no file beside it.
const workerSource = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
parentPort.on('message', ({ password, salt, keyBytes, options }) => {
  try {
    parentPort.postMessage({ key: scryptSync(password, salt, keyBytes, options) });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});`;

interface Job {
  input: { password: string; salt: Buffer; keyBytes: number; options: ScryptOptions };
  done(key: Buffer): void;
  fail(error: Error): void;
}

type Answer = { key: Uint8Array } | { error: string };

export class ScryptPool {
  /** Derivations running or waiting for a thread, at most. */
  readonly maxInFlight: number;
  readonly #maxThreads: number;
  readonly #idle: Worker[] = [];
  readonly #waiting: Job[] = [];
  #threads = 0;
  #inFlight = 0;

  constructor(threads = availableParallelism()) {
    this.#maxThreads = threads;
    this.maxInFlight = 2 * threads;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** scrypt's key, or PasswordChecksBusy at once when maxInFlight are under way. */
  derive(password: string, salt: Buffer, keyBytes: number, options: ScryptOptions): Promise<Buffer> {
    if (this.#inFlight >= this.maxInFlight) return Promise.reject(new PasswordChecksBusy());
    this.#inFlight += 1;
    const key = new Promise<Buffer>((done, fail) => {
      this.#waiting.push({ input: { password, salt, keyBytes, options }, done, fail });
      this.#next();
    });
    return key.finally(() => (this.#inFlight -= 1));
  }

  #next(): void {
    if (this.#waiting.length === 0) return;
    const worker = this.#idle.pop() ?? (this.#threads < this.#maxThreads ? this.#start() : undefined);
    const job = worker === undefined ? undefined : this.#waiting.shift();
    if (worker === undefined || job === undefined) return;
    const finish = (answer: Answer | Error) => {
      worker.off('message', finish);
      worker.off('error', finish);
      if (answer instanceof Error) {
        this.#threads -= 1;
        void worker.terminate();
        job.fail(answer);
      } else {
        // An idle thread does not keep the process (the command line) alive.
        worker.unref();
        this.#idle.push(worker);
        if ('key' in answer) job.done(Buffer.from(answer.key.buffer, answer.key.byteOffset, answer.key.byteLength));
        else job.fail(new Error(answer.error));
      }
      this.#next();
    };
    worker.once('message', finish);
    worker.once('error', finish);
    worker.ref();
    worker.postMessage(job.input);
  }

  #start(): Worker {
    this.#threads += 1;
    return new Worker(workerSource, { eval: true });
  }
}

/** The process's one pool: the bound is for the whole process. */
export const scryptPool = new ScryptPool();
