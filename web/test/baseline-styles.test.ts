import assert from 'node:assert/strict';
import { test } from 'node:test';
import { baselineStyleProblems } from '../build/baseline-styles';
import { legacyStylesheet } from '../build/legacy-stylesheet';

test('CSS the oldest engines lack is found, unless it has a fallback', () => {
  assert.equal(baselineStyleProblems('@layer base{a{color:red}}').length, 1);
  assert.equal(baselineStyleProblems('a{color:color-mix(in oklab,red 50%,blue)}').length, 1);
  assert.equal(baselineStyleProblems('a:is(.b,.c){color:red}').length, 1);
  assert.equal(baselineStyleProblems('a{padding-inline:1rem}').length, 1);
  assert.equal(baselineStyleProblems('@container (width>=1px){a{color:red}}').length, 1);
  assert.deepEqual(baselineStyleProblems('a{color:red;color:color-mix(in oklab,red 50%,blue)}'), []);
  assert.deepEqual(
    baselineStyleProblems('@supports (color:color-mix(in lab,red,red)){a{color:oklch(50% .1 200)}}'),
    [],
  );
});

test('the legacy stylesheet flattens layers and lowers what the baseline lacks', async () => {
  const css = await legacyStylesheet(
    '@layer base{a{color:red}}@layer utilities{.px-4{padding-inline:calc(var(--s) * 4)}.x:where(.y,.z){color:color-mix(in srgb,red 50%,blue)}}',
  );
  assert.deepEqual(baselineStyleProblems(css), []);
  assert.doesNotMatch(css, /@layer|padding-inline|:where|color-mix/);
  assert.match(css, /padding-left:calc\(var\(--s\) \* 4\)/);
});
