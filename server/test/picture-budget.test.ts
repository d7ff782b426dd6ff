/**
 * Each client's budget of share pictures to draw (reach/picture/budget.ts), with the clock given:
 * draws per window and at once, what ends a window, and the bound on clients tracked.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DrawBudget, type Grant } from '../src/reach/picture/budget.js';

const options = { perWindow: 3, atOnce: 2, windowMs: 60_000, maxClients: 2 };
const granted = (grant: Grant) => {
  assert.ok(grant.granted);
  return grant;
};

test('at most atOnce under way; one released makes room', () => {
  const budget = new DrawBudget(options);
  const first = granted(budget.take('a', 0));
  granted(budget.take('a', 0));
  assert.deepEqual(budget.take('a', 0), { granted: false, retryAfterMs: 1000 });
  first.release();
  first.release();
  granted(budget.take('a', 0));
  assert.equal(budget.take('a', 0).granted, false);
});

test('at most perWindow in a window, told to wait until it ends; the next window starts over', () => {
  const budget = new DrawBudget(options);
  for (let n = 0; n < 3; n++) granted(budget.take('a', 1000)).release();
  assert.deepEqual(budget.take('a', 21_000), { granted: false, retryAfterMs: 40_000 });
  granted(budget.take('b', 21_000));
  granted(budget.take('a', 61_000));
});

test('a draw under way when a window ends still counts against its client', () => {
  const budget = new DrawBudget(options);
  const running = granted(budget.take('a', 0));
  granted(budget.take('a', 0));
  assert.equal(budget.take('a', 60_000).granted, false, 'two still under way');
  running.release();
  granted(budget.take('a', 60_000));
});

test('past maxClients in a window, a new client waits for the next window', () => {
  const budget = new DrawBudget(options);
  granted(budget.take('a', 0)).release();
  granted(budget.take('b', 0)).release();
  assert.deepEqual(budget.take('c', 30_000), { granted: false, retryAfterMs: 30_000 });
  granted(budget.take('c', 60_000));
});
