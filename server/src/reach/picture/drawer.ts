/**
 * Share pictures drawn off the event loop: one thread per process (reach/picture/draw-thread.ts),
 * started when the server starts listening (warm: satori, resvg and the site picture's font
 * slices loaded, so the first picture asked for is not the one that pays for them) or at the
 * first picture, and ended after a while without any, giving its memory back
 * (docs/scaling.md#share-pictures). The store (store.ts) hands it one picture at a time.
 */
import { Worker } from 'node:worker_threads';
import type { Node } from './card.js';
import type { DrawAnswer, DrawRequest } from './draw-thread.js';

/** Without a picture to draw for this long, the thread ends; the next one starts it again. */
export const threadIdleMs = 10 * 60_000;

// Beside this file: draw-thread.js when built, draw-thread.ts when run from source (tsx).
const threadFile = new URL(`./draw-thread${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

export class PictureThread {
  #worker: Worker | undefined;
  #idle: NodeJS.Timeout | undefined;
  /** Settles when the picture asked for last is done. */
  #turn: Promise<unknown> = Promise.resolve();
  readonly #idleMs: number;

  constructor(idleMs = threadIdleMs) {
    this.#idleMs = idleMs;
  }

  /** Whether the thread is running now. */
  get running(): boolean {
    return this.#worker !== undefined;
  }

  /** The PNG of `card`, drawn on the thread; one at a time, in the order asked. */
  draw(card: Node): Promise<Buffer> {
    const drawn = this.#turn.then(() => this.#drawNow(card));
    this.#turn = drawn.catch(() => undefined);
    return drawn;
  }

  /** Starts the thread and has it draw `card`, so that the next picture finds it warm. */
  warm(card: Node): void {
    this.draw(card).catch(() => undefined);
  }

  /** Ends the thread now (an app closing; tests). */
  async stop(): Promise<void> {
    clearTimeout(this.#idle);
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
  }

  #drawNow(card: Node): Promise<Buffer> {
    clearTimeout(this.#idle);
    const worker = (this.#worker ??= new Worker(threadFile));
    worker.ref();
    return new Promise<Buffer>((done, fail) => {
      const ended = (code: number) => finish(new Error(`the drawing thread ended (exit code ${code})`));
      const finish = (answer: DrawAnswer | Error) => {
        worker.off('message', finish);
        worker.off('error', finish);
        worker.off('exit', ended);
        if (answer instanceof Error) {
          if (this.#worker === worker) this.#worker = undefined;
          void worker.terminate();
          fail(answer);
          return;
        }
        // An idle thread does not keep the process alive; it ends after threadIdleMs.
        worker.unref();
        this.#idle = setTimeout(() => void this.stop(), this.#idleMs).unref();
        if ('png' in answer) done(Buffer.from(answer.png.buffer, answer.png.byteOffset, answer.png.byteLength));
        else fail(new Error(answer.error));
      };
      worker.on('message', finish);
      worker.on('error', finish);
      worker.on('exit', ended);
      worker.postMessage({ card } satisfies DrawRequest);
    });
  }
}

/** The process's one drawing thread: every app of the process (the tests run several) shares it. */
export const pictureThread = new PictureThread();
