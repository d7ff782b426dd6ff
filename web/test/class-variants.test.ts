// cn() joins class names without merging them (src/lib/cn.ts): of two classes that set the same
// property, the one later in the built CSS wins, not the one a caller added. So each component
// offers variants, and each variant must name exactly one class of each such property.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { logoClass } from '../src/components/layout/logo';
import { iconClass } from '../src/components/ui/icon';
import { statusPadding } from '../src/components/ui/status';
import { rowClass } from '../src/features/announcements/components/announcement-list';
import { cardClass } from '../src/features/downloads/components/download-card';
import { themeOptionClass } from '../src/features/theme/theme-switcher';
import { cn } from '../src/lib/cn';

const classesOf = (names: string) => names.split(/\s+/).filter(Boolean);

/** The classes of `names` (one variant prefix such as `md:` or `hover:` included) that `family`
 * matches; the tests below expect one at most. */
const family = (names: string, pattern: RegExp) => classesOf(names).filter((name) => pattern.test(name));

describe('cn', () => {
  test('joins the true class names in order, skipping false, null, undefined and empty ones', () => {
    assert.equal(cn('a b', false, null, undefined, '', 'c'), 'a b c');
    assert.equal(cn(), '');
  });
});

describe('icon sizes', () => {
  test('each size is one size class, with the caller’s classes after it', () => {
    assert.deepEqual(family(iconClass(), /^size-/), ['size-5']);
    assert.deepEqual(family(iconClass('sm'), /^size-/), ['size-4']);
    assert.deepEqual(family(iconClass('md'), /^size-/), ['size-[18px]']);
    assert.deepEqual(family(iconClass('xl', 'transition-transform'), /^size-/), ['size-8']);
    assert.equal(iconClass('xl', 'transition-transform'), 'size-8 transition-transform');
  });
});

describe('logo sizes', () => {
  test('the header’s logo is 28 px, 32 px from 768 px; the others one size each', () => {
    assert.deepEqual(family(logoClass('header'), /^size-/), ['size-7']);
    assert.deepEqual(family(logoClass('header'), /^md:size-/), ['md:size-8']);
    assert.deepEqual(family(logoClass(), /^size-/), ['size-8']);
    assert.deepEqual(family(logoClass('large', 'mt-6'), /^size-/), ['size-14']);
    assert.match(logoClass('large', 'mt-6'), /\bmt-6\b/);
  });
});

describe('status padding', () => {
  test('a screen’s worth by default, less when compact', () => {
    assert.equal(statusPadding(), 'py-16');
    assert.equal(statusPadding(true), 'py-10');
  });
});

describe('selected states name their own colours', () => {
  test('the recommended card has the large shadow and brand border, the others the small shadow', () => {
    assert.deepEqual(family(cardClass(true), /^shadow-(sm|md|lg|xl)$/), ['shadow-lg']);
    assert.deepEqual(family(cardClass(true), /^border-(brand|line)$/), ['border-brand']);
    assert.deepEqual(family(cardClass(false), /^shadow-(sm|md|lg|xl)$/), ['shadow-sm']);
    assert.deepEqual(family(cardClass(false), /^border-(brand|line)$/), ['border-line']);
  });

  test('the chosen theme is drawn in the text colour, the others muted', () => {
    assert.deepEqual(family(themeOptionClass(true), /^text-(fg|muted)$/), ['text-fg']);
    assert.deepEqual(family(themeOptionClass(false), /^text-(fg|muted)$/), ['text-muted']);
  });

  test('the open announcement’s row has one hover tint, its own', () => {
    assert.deepEqual(family(rowClass(true), /^hover:bg-/), ['hover:bg-brand/20']);
    assert.deepEqual(family(rowClass(false), /^hover:bg-/), ['hover:bg-surface-2']);
  });
});
