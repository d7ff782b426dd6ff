/**
 * How the update checks compare versions (docs/releases.md#update-checks): dotted numbers,
 * pre-release tags lowest, and never a failure on what a client sends.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { compareParsed, isOlder, parseVersion, type ParsedVersion } from '../src/updates/version.js';

const parse = (text: string): ParsedVersion => {
  const parsed = parseVersion(text);
  assert.ok(parsed !== undefined, text);
  return parsed;
};
const compare = (a: string, b: string) => compareParsed(parse(a), parse(b));

test('dotted numbers compare as numbers, not as text', () => {
  assert.equal(compare('5.10.0', '5.9.3'), 1);
  assert.equal(compare('5.9.3', '5.10.0'), -1);
  assert.equal(compare('v5.1', '5.1.0'), 0);
  assert.equal(compare('10.0.0', '9.99.99'), 1);
  assert.equal(compare('5.0.0+build.7', '5.0.0'), 0);
});

test('a pre-release is below its release and above the one before', () => {
  assert.equal(compare('5.0.0-beta', '5.0.0'), -1);
  assert.equal(compare('5.0.0-beta.2', '5.0.0-beta.10'), -1);
  assert.equal(compare('5.0.0-alpha', '5.0.0-beta'), -1);
  assert.equal(compare('5.0.0-rc.1', '4.9.9'), 1);
});

test('what cannot be read is no version, and is always offered the current release', () => {
  for (const text of ['', 'latest', '5..0', '五.0', '5.0.0.0.0.0.0.0.0', '-1', '1.2.3-', '9'.repeat(12)]) {
    assert.equal(parseVersion(text), undefined, text);
    assert.equal(isOlder(text, parse('1.0.0')), true, text);
  }
});

const numbers = fc.array(fc.nat({ max: 99_999 }), { minLength: 1, maxLength: 4 });
const tag = fc.option(fc.stringMatching(/^[0-9A-Za-z]{1,8}(\.[0-9A-Za-z]{1,8}){0,2}$/), { nil: undefined });
const version = fc
  .record({ numbers, tag })
  .map(({ numbers: parts, tag: t }) => `${parts.join('.')}${t === undefined ? '' : `-${t}`}`);

test('property: the order is total and consistent (antisymmetric, transitive, reflexive)', () => {
  fc.assert(
    fc.property(version, version, version, (a, b, c) => {
      assert.equal(compare(a, a), 0);
      assert.equal(Math.sign(compare(a, b)), -Math.sign(compare(b, a)));
      if (compare(a, b) <= 0 && compare(b, c) <= 0) assert.ok(compare(a, c) <= 0);
    }),
  );
});

test('property: releases order as their number tuples do, and a tag only lowers a version', () => {
  fc.assert(
    fc.property(numbers, numbers, (a, b) => {
      const width = Math.max(a.length, b.length);
      const pad = (parts: number[]) => [...parts, ...Array<number>(width - parts.length).fill(0)];
      const [x, y] = [pad(a), pad(b)];
      const i = x.findIndex((part, index) => part !== y[index]);
      const expected = i < 0 ? 0 : Math.sign((x[i] ?? 0) - (y[i] ?? 0));
      assert.equal(compare(a.join('.'), b.join('.')), expected);
      assert.equal(compare(`${a.join('.')}-rc.1`, a.join('.')), -1);
    }),
  );
});

test('property: any text a client sends is answered, never thrown on', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 120 }), version, (client, latest) => {
      assert.equal(typeof isOlder(client, parse(latest)), 'boolean');
    }),
  );
});
