import assert from 'node:assert/strict';
import { beforeEach, describe, mock, test } from 'node:test';
import { ApiFailure, WrongShapeError } from '@chat-site/contract';
import { HttpError } from '../src/lib/http';
import { hasStrings, isStale, listOf, recall, remember, withLastGood } from '../src/lib/last-good';
import { storageKeys } from '../src/lib/storage';

type Item = { id: string };
const isItem = hasStrings<Item>('id');
const isItems = listOf(isItem);

beforeEach(() => {
  localStorage.clear();
  mock.restoreAll();
  // Quiet the logged fallbacks; the tests look at what is answered.
  mock.method(console, 'warn', () => undefined);
});

/** Each call of Date.now() a millisecond later, so "oldest" is well defined. */
function tickingClock(): void {
  let now = 1_700_000_000_000;
  mock.method(Date, 'now', () => now++);
}

describe('remember and recall', () => {
  test('give back what was kept, when it still passes the check', () => {
    remember('a', [{ id: '1' }]);
    assert.deepEqual(recall('a', isItems), [{ id: '1' }]);
    assert.equal(
      recall('a', (value): value is string => typeof value === 'string'),
      undefined,
    );
    assert.equal(recall('missing', isItems), undefined);
  });

  test('a store that is not JSON, or not an object of entries, reads as empty and is replaced', () => {
    for (const broken of ['{not json', '[1,2]', '"text"', '{"a":{"savedAt":"yesterday","data":[]}}']) {
      localStorage.setItem(storageKeys.lastGood, broken);
      assert.equal(recall('a', isItems), undefined, broken);
    }
    remember('b', [{ id: '2' }]);
    assert.deepEqual(recall('b', isItems), [{ id: '2' }]);
  });

  test('keep the newest 24 answers, dropping the oldest first', () => {
    tickingClock();
    for (let n = 0; n < 30; n++) remember(`key-${n}`, { id: String(n) });
    const kept = Object.keys(JSON.parse(localStorage.getItem(storageKeys.lastGood) ?? '{}') as object);
    assert.equal(kept.length, 24);
    assert.equal(recall('key-5', isItem), undefined);
    assert.deepEqual(recall('key-6', isItem), { id: '6' });
    assert.deepEqual(recall('key-29', isItem), { id: '29' });
  });

  test('do not keep an answer too large on its own, and keep the others', () => {
    tickingClock();
    remember('small', { id: 'small' });
    remember('huge', { id: 'x'.repeat(400_000) });
    assert.equal(recall('huge', isItem), undefined);
    assert.deepEqual(recall('small', isItem), { id: 'small' });
  });
});

describe('withLastGood', () => {
  const saved = [{ id: 'saved' }];
  const failWith = (error: unknown) => () => Promise.reject(error);

  test('answers and keeps a good answer, not marked stale', async () => {
    const answer = await withLastGood('list', () => Promise.resolve([{ id: 'new' }]), isItems);
    assert.deepEqual(answer, [{ id: 'new' }]);
    assert.equal(isStale(answer), false);
    assert.deepEqual(recall('list', isItems), [{ id: 'new' }]);
  });

  for (const [name, error] of [
    ['no answer at all', new TypeError('Failed to fetch')],
    ['a gateway answering 502 for a dead server', new HttpError(502, 'https://api.example.test/v1/x')],
  ] as const) {
    test(`stands in the saved copy, marked stale, on ${name}`, async () => {
      remember('list', saved);
      const answer = await withLastGood('list', failWith(error), isItems);
      assert.deepEqual(answer, saved);
      assert.equal(isStale(answer), true);
    });
  }

  for (const [name, error] of [
    ['a 4xx', new HttpError(404, 'https://api.example.test/v1/x')],
    ['an answer of the wrong shape', new WrongShapeError('not a list')],
    ['a refusal in the envelope', new ApiFailure('refused')],
  ] as const) {
    test(`rethrows ${name}: the server spoke`, async () => {
      remember('list', saved);
      await assert.rejects(withLastGood('list', failWith(error), isItems), error);
    });
  }

  test('rethrows when there is no saved copy, or the saved copy fails the check', async () => {
    const error = new TypeError('Failed to fetch');
    await assert.rejects(withLastGood('list', failWith(error), isItems), error);
    remember('list', [{ name: 'no id' }]);
    await assert.rejects(withLastGood('list', failWith(error), isItems), error);
  });
});

describe('the saved-answer readers', () => {
  test('hasStrings accepts an object whose named fields are all strings', () => {
    const check = hasStrings<{ os: string; downloadUrl: string }>('os', 'downloadUrl');
    assert.equal(check({ os: 'ios', downloadUrl: 'https://x', extra: 1 }), true);
    assert.equal(check({ os: 'ios' }), false);
    assert.equal(check({ os: 'ios', downloadUrl: 7 }), false);
    assert.equal(check(['ios', 'https://x']), false);
    assert.equal(check(null), false);
  });

  test('listOf accepts an array whose every item passes, the empty one included', () => {
    assert.equal(isItems([{ id: '1' }, { id: '2' }]), true);
    assert.equal(isItems([]), true);
    assert.equal(isItems([{ id: '1' }, { id: 2 }]), false);
    assert.equal(isItems({ 0: { id: '1' }, length: 1 }), false);
  });
});
