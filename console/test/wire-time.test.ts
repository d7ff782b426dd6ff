// The admin API's wall-clock times and the editor's datetime-local fields (lib/wire-time.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fromFieldTime, shortTime, toFieldTime, wallClockNow } from '../src/lib/wire-time';

test('a wire time becomes a field value without seconds, and back with :00', () => {
  assert.equal(toFieldTime('2026-11-26 09:30:45'), '2026-11-26T09:30');
  assert.equal(fromFieldTime('2026-11-26T09:30'), '2026-11-26 09:30:00');
  assert.equal(fromFieldTime(toFieldTime('2026-11-26 09:30:00')), '2026-11-26 09:30:00');
});

test('a field value with seconds keeps the wire form', () => {
  assert.equal(fromFieldTime('2026-11-26T09:30:15'), '2026-11-26 09:30:15');
});

test('now is the server zone wall clock, not this machine one', () => {
  const instant = Date.UTC(2026, 10, 26, 1, 2, 3);
  assert.equal(wallClockNow('Asia/Shanghai', instant), '2026-11-26 09:02:03');
  assert.equal(wallClockNow('UTC', instant), '2026-11-26 01:02:03');
});

test('lists show minutes', () => {
  assert.equal(shortTime('2026-11-26 09:30:45'), '2026-11-26 09:30');
});
