// What changed between two revisions, as 历史版本 shows it (docs/console.md#revisions).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { characters, diffTokens } from '../src/features/bulletins/text-diff';

test('unchanged text is one run kept', () => {
  assert.deepEqual(diffTokens(['甲', '乙'], ['甲', '乙'], '\n'), [{ kind: 'same', text: '甲\n乙' }]);
});

test('a changed line reads old then new, between the lines kept', () => {
  assert.deepEqual(diffTokens(['一', '二', '三'], ['一', '贰', '三'], '\n'), [
    { kind: 'same', text: '一' },
    { kind: 'removed', text: '二' },
    { kind: 'added', text: '贰' },
    { kind: 'same', text: '三' },
  ]);
});

test('Chinese is compared character by character, neighbouring changes joined', () => {
  assert.deepEqual(diffTokens(characters('今晚维护'), characters('明晚十点维护')), [
    { kind: 'removed', text: '今' },
    { kind: 'added', text: '明' },
    { kind: 'same', text: '晚' },
    { kind: 'added', text: '十点' },
    { kind: 'same', text: '维护' },
  ]);
});

test('lines only added or only removed', () => {
  assert.deepEqual(diffTokens([], ['新'], '\n'), [{ kind: 'added', text: '新' }]);
  assert.deepEqual(diffTokens(['旧'], [], '\n'), [{ kind: 'removed', text: '旧' }]);
});

test('past the size limit the texts are shown replaced whole, not compared', () => {
  const before = Array.from({ length: 1500 }, (_, index) => `a${index}`);
  const after = Array.from({ length: 1500 }, (_, index) => `a${index}`);
  const parts = diffTokens(before, after, ' ');
  assert.deepEqual(
    parts.map((part) => part.kind),
    ['removed', 'added'],
  );
});

test('an emoji or a surrogate pair is one character', () => {
  assert.deepEqual(characters('好👍𠮷'), ['好', '👍', '𠮷']);
});
