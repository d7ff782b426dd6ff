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

test('a colour at an opacity stays a tint where color-mix() is missing, not the full colour', async () => {
  // As Tailwind writes `bg-brand/15` and `border-line/60`: the full colour, then the mix where it is known.
  const css = await legacyStylesheet(
    ':root{--brand:#2563eb;--line:#dbe2ee}.dark{--brand:#4f8cff}@layer utilities{' +
      '.bg-brand\\/15{background-color:var(--brand)}.border-line\\/60{border-color:var(--line)}' +
      '@supports (color:color-mix(in lab,red,red)){' +
      '.bg-brand\\/15{background-color:color-mix(in oklab,var(--brand) 15%,transparent)}' +
      '.border-line\\/60{border-color:color-mix(in oklab,var(--line) 60%,transparent)}}}',
  );
  assert.deepEqual(baselineStyleProblems(css), []);
  // Each mixed colour's channels beside it, in each theme.
  assert.match(css, /--brand:#2563eb;--brand-rgb:37,99,235[;}]/);
  assert.match(css, /--brand:#4f8cff;--brand-rgb:79,140,255[;}]/);
  assert.match(css, /--line:#dbe2ee;--line-rgb:219,226,238[;}]/);
  // The rgba() comes after the full colour and before the color-mix() that engines with it take.
  const full = css.indexOf('background-color:var(--brand)');
  const tint = css.indexOf('background-color:rgba(var(--brand-rgb),0.15)');
  const mix = css.indexOf('background-color:color-mix(');
  assert.ok(full >= 0 && full < tint && tint < mix, css);
  assert.match(css, /border-color:rgba\(var\(--line-rgb\),0\.6\)/);
});
