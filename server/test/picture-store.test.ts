/**
 * The share pictures' store on its own, with a drawer the test controls: how much it holds, how
 * many it draws at once, and when it refuses to queue more (docs/scaling.md#share-pictures).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Node } from '../src/reach/picture/card.js';
import { PicturesBusy, PictureStore } from '../src/reach/picture/store.js';

const card = (title: string): Node => ({ type: 'div', props: { children: title } });

/** Draws nothing until the test says so; counts what is being drawn at once. */
function controlledDrawer(bytes: number) {
  const pending: (() => void)[] = [];
  let drawing = 0;
  let most = 0;
  const draw = (node: Node) =>
    new Promise<Buffer>((resolve) => {
      drawing++;
      most = Math.max(most, drawing);
      pending.push(() => {
        drawing--;
        resolve(Buffer.alloc(bytes, String(node.props.children)));
      });
    });
  return {
    draw,
    /** Finishes the picture being drawn, once one is. */
    async finishNext() {
      while (pending.length === 0) await new Promise((resolve) => setImmediate(resolve));
      pending.shift()?.();
    },
    get most() {
      return most;
    },
  };
}

test('one picture is drawn at a time; asking twice for one being drawn draws it once', async () => {
  const drawer = controlledDrawer(10);
  const store = new PictureStore({ draw: drawer.draw, maxBytes: 1000, maxWaiting: 8 });
  const asked = [
    store.picture(card('a')),
    store.picture(card('a')),
    store.picture(card('b')),
    store.picture(card('c')),
  ];
  for (let i = 0; i < 3; i++) await drawer.finishNext();
  const [a1, a2, b, c] = await Promise.all(asked);
  assert.equal(a1, a2);
  assert.notDeepEqual(a1, b);
  assert.ok(c !== undefined);
  assert.equal(drawer.most, 1);
});

test('past maxWaiting pictures waiting, the next is refused rather than queued', async () => {
  const drawer = controlledDrawer(10);
  const store = new PictureStore({ draw: drawer.draw, maxBytes: 1000, maxWaiting: 2 });
  const first = store.picture(card('1'));
  const second = store.picture(card('2'));
  await assert.rejects(store.picture(card('3')), PicturesBusy);
  for (let i = 0; i < 2; i++) await drawer.finishNext();
  await Promise.all([first, second]);
  const third = store.picture(card('3'));
  await drawer.finishNext();
  assert.equal((await third).length, 10, 'the queue has room again');
});

test('holds at most maxBytes of pictures, the least recently used going first', async () => {
  const drawn: string[] = [];
  const draw = async (node: Node) => {
    drawn.push(String(node.props.children));
    return Buffer.alloc(400);
  };
  const store = new PictureStore({ draw, maxBytes: 1000, maxWaiting: 8 });
  for (const title of ['a', 'b', 'a', 'c']) await store.picture(card(title));
  assert.equal(store.size, 800, 'two pictures of 400 bytes fit in 1000');
  for (const title of ['a', 'b']) await store.picture(card(title));
  assert.deepEqual(drawn, ['a', 'b', 'c', 'b'], 'b, the least recently used, went to make room for c');
});
