/**
 * The thread share pictures are drawn on (reach/picture/drawer.ts starts it): satori and resvg
 * are synchronous and take 0.3 to 1 s of CPU a picture, which on the main thread would stall every
 * other request of the worker. The thread runs at the lowest priority (nice 19; on Linux the nice
 * value is per thread), so on a busy machine the main threads' requests go first and pictures
 * take what CPU is left (docs/scaling.md#share-pictures).
 */
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { Node } from './card.js';
import { renderPng, renderSvg } from './render.js';

/** `layoutOnly`: a warm-up, answered once satori has laid the card out (resvg needs no warming). */
export type DrawRequest = { card: Node; layoutOnly?: boolean };
export type DrawAnswer = { png: Uint8Array } | { laidOut: true } | { error: string };

try {
  setPriority(19);
} catch {
  // A system that refuses (none known): the picture is drawn at the thread's usual priority.
}

async function answer({ card, layoutOnly }: DrawRequest): Promise<DrawAnswer> {
  if (layoutOnly === true) {
    await renderSvg(card);
    return { laidOut: true };
  }
  const png = await renderPng(card);
  return { png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength) };
}

parentPort?.on('message', (request: DrawRequest) => {
  answer(request).then(
    (drawn) => parentPort?.postMessage(drawn),
    (error: unknown) =>
      parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies DrawAnswer),
  );
});
