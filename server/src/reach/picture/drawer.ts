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
  async draw(card: Node): Promise<Buffer> {
    const answer = await this.#inTurn({ card });
    if (!('png' in answer)) throw new Error('the drawing thread answered without a picture');
    return Buffer.from(answer.png.buffer, answer.png.byteOffset, answer.png.byteLength);
  }

  /**
   * Starts the thread and has it lay `card` out, so that the next picture finds satori, its
   * WebAssembly and the card's font slices loaded. The PNG is not made: resvg has nothing to warm,
   * and a quarter of a second less here is a first picture that much sooner.
   */
  warm(card: Node): Promise<void> {
    return this.#inTurn({ card, layoutOnly: true }).then(
      () => undefined,
      () => undefined,
    );
  }

  /** Ends the thread now (an app closing; tests). */
  async stop(): Promise<void> {
    clearTimeout(this.#idle);
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
  }

  #inTurn(request: DrawRequest): Promise<Exclude<DrawAnswer, { error: string }>> {
    const answered = this.#turn.then(() => this.#ask(request));
    this.#turn = answered.catch(() => undefined);
    return answered;
  }

  #ask(request: DrawRequest): Promise<Exclude<DrawAnswer, { error: string }>> {
    clearTimeout(this.#idle);
    const worker = (this.#worker ??= new Worker(threadFile));
    worker.ref();
    return new Promise((done, fail) => {
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
        if ('error' in answer) fail(new Error(answer.error));
        else done(answer);
      };
      worker.on('message', finish);
      worker.on('error', finish);
      worker.on('exit', ended);
      worker.postMessage(request);
    });
  }
}

/** The process's one drawing thread: every app of the process (the tests run several) shares it. */
export const pictureThread = new PictureThread();
