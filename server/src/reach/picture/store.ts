/**
 * Share pictures made and kept in memory. A picture is named by what it shows (its version, a
 * hash of the card), so a changed announcement is simply a new name and the old picture ages out.
 * Drawing is CPU work (satori and resvg are synchronous, on the drawing thread: drawer.ts), so
 * one picture is drawn at a time and only a few wait: past that a request is told to come back
 * later rather than queue without end (docs/scaling.md#share-pictures).
 */
import { createHash } from 'node:crypto';
import { pictureCounts } from '../../lib/metrics.js';
import type { Node } from './card.js';

export type Draw = (card: Node) => Promise<Buffer>;

/** Too many pictures are waiting to be drawn: answered 503 with Retry-After. */
export class PicturesBusy extends Error {}

export interface PictureStoreOptions {
  draw: Draw;
  /** Bytes of PNG held at most; the least recently used go first. */
  maxBytes: number;
  /** Pictures waiting for their turn at most, besides the one being drawn. */
  maxWaiting: number;
}

/** The version of a card: what scrapers see change in the picture's address. */
export function cardVersion(card: Node): string {
  return createHash('sha256').update(JSON.stringify(card)).digest('base64url').slice(0, 16);
}

export class PictureStore {
  readonly #options: PictureStoreOptions;
  readonly #held = new Map<string, Buffer>();
  readonly #drawing = new Map<string, Promise<Buffer>>();
  #bytes = 0;
  #waiting = 0;
  /** Settles when the picture drawn last is done: the next one starts after it. */
  #turn: Promise<unknown> = Promise.resolve();

  constructor(options: PictureStoreOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#bytes;
  }

  /** Whether the picture of this version is held, or being drawn: asking for it draws nothing. */
  has(version: string): boolean {
    return this.#held.has(version) || this.#drawing.has(version);
  }

  /** The PNG of `card`, from memory or drawn now. */
  picture(card: Node, version = cardVersion(card)): Promise<Buffer> {
    const held = this.#held.get(version);
    if (held !== undefined) {
      pictureCounts.hits++;
      this.#held.delete(version);
      this.#held.set(version, held);
      return Promise.resolve(held);
    }
    const drawing = this.#drawing.get(version);
    if (drawing !== undefined) return drawing;
    if (this.#waiting >= this.#options.maxWaiting) return Promise.reject(new PicturesBusy());
    this.#waiting++;
    const made = this.#turn.then(() => {
      this.#waiting--;
      pictureCounts.draws++;
      return this.#options.draw(card);
    });
    this.#turn = made.catch(() => undefined);
    this.#drawing.set(version, made);
    made.then(
      (png) => this.#keep(version, png),
      () => undefined,
    );
    void made.finally(() => this.#drawing.delete(version)).catch(() => undefined);
    return made;
  }

  #keep(version: string, png: Buffer): void {
    if (png.length > this.#options.maxBytes) return;
    this.#held.set(version, png);
    this.#bytes += png.length;
    for (const [oldest, bytes] of this.#held) {
      if (this.#bytes <= this.#options.maxBytes) break;
      this.#held.delete(oldest);
      this.#bytes -= bytes.length;
    }
  }
}
