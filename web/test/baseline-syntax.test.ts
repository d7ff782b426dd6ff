import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertBaselineSyntax } from '../build/baseline-syntax';

const refusal = (code: string, sourceType: 'script' | 'module' = 'script') => {
  try {
    assertBaselineSyntax(code, 'a.js', sourceType);
    return undefined;
  } catch (error) {
    return String(error);
  }
};

test('syntax past ES2019 is refused, naming the script', () => {
  assert.match(refusal('var a = b ?? c;') ?? '', /a\.js has syntax the oldest browsers served cannot parse/);
  assert.ok(refusal('var a = b?.c;'));
  assert.ok(refusal('class A { b = 1 }'));
  assert.equal(refusal('var a = [1].flat(); try {} catch {}'), undefined);
});

test('a module may import() and read import.meta, which the baseline engines have', () => {
  assert.equal(refusal('import("./b.js").then(() => import.meta.url);', 'module'), undefined);
});

test('a lookbehind is refused, for Safari before 16.4 refuses the whole script', () => {
  assert.match(refusal('var a = /(?<=x)y/;') ?? '', /lookbehind.*\/\(\?<=x\)y\//);
  assert.ok(refusal('var a = /(?<!x)y/g.test(b);'));
  // A named group is Safari 11.1's; the same text in a string is no expression.
  assert.equal(refusal('var a = /(?<name>x)/; var b = "(?<=x)";'), undefined);
});
