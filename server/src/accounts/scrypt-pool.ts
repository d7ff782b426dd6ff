/**
 * Where scrypt runs: worker threads, never libuv's thread pool (four threads by default), which
 * opens and reads every hosted file. The threads are shared out over the whole server: each of
 * its WORKERS processes gets cores / WORKERS of them, at least one (threadsPerWorker), so a
 * sign-in flood never runs more memory-hard threads than there are cores. At most two per thread
 * are under way at once, running or waiting, in the whole process; one more is refused at once
 * (PasswordChecksBusy) rather than queued, so no number of sign-ins can hold up other requests
 * or pile up work. A sign-in takes its place (a Slot) before its attempt is counted, so an
 * attempt refused for want of room writes nothing (docs/console.md#sign-in-limits).
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

/** A place among the derivations under way, taken before one starts; given back once. */
export interface Slot {
  release(): void;
}

/** The threads each of `workers` processes may run: the cores shared out, at least one. */
export function threadsPerWorker(workers: number, cores = availableParallelism()): number {
  return Math.max(1, Math.floor(cores / Math.max(1, workers)));
}

export class ScryptPool {
  #maxThreads = 1;
  readonly #idle: Worker[] = [];
  readonly #waiting: Job[] = [];
  #threads = 0;
  #inFlight = 0;

  constructor(threads = availableParallelism()) {
    this.resize(threads);
  }

  /** Derivations running or waiting for a thread, at most. */
  get maxInFlight(): number {
    return 2 * this.#maxThreads;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** Runs at most `threads` threads from now on (a server's start: serving.ts). */
  resize(threads: number): void {
    this.#maxThreads = Math.max(1, threads);
  }

  /** A place for one derivation, or undefined when maxInFlight are under way. */
  reserve(): Slot | undefined {
    if (this.#inFlight >= this.maxInFlight) return undefined;
    this.#inFlight += 1;
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.#inFlight -= 1;
      },
    };
  }

  /** scrypt's key, in `slot` or a place of its own: PasswordChecksBusy at once when none is free. */
  derive(
    password: string,
    salt: Buffer,
    keyBytes: number,
    options: ScryptOptions,
    slot = this.reserve(),
  ): Promise<Buffer> {
    if (slot === undefined) return Promise.reject(new PasswordChecksBusy());
    const key = new Promise<Buffer>((done, fail) => {
      this.#waiting.push({ input: { password, salt, keyBytes, options }, done, fail });
      this.#next();
    });
    return key.finally(() => slot.release());
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

/** The process's one pool: the bound is for the whole process. A server sizes it at its start
 * for its number of workers (serving.ts); until then, one thread per core (the command line). */
export const scryptPool = new ScryptPool();
