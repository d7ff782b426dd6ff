import type { Plugin as PostcssPlugin, Root, Rule } from 'postcss';
import selectorParser, { type Pseudo, type Selector } from 'postcss-selector-parser';

/** Pseudo-classes that take a list and match any of it: Chromium 88 and Safari 14 for :is() and
 * :where(); -webkit-any() is Lightning CSS's prefixed copy for the older of those engines. */
const anyOf = new Set([':is', ':where', ':-webkit-any']);

/** The selector written once for each item of its first :is() or :where(), until none is left
 * (`a:is(.b, .c)` is `a.b, a.c`; `:not(:is(.b, .c))` is `:not(.b):not(.c)`). Their weights grow
 * by the item's, which within a flattened layer (legacy-stylesheet.ts) changes nothing the site
 * relies on. */
function expand(selector: Selector): Selector[] {
  let list: Pseudo | undefined;
  selector.walkPseudos((pseudo) => {
    if (!list && anyOf.has(pseudo.value.toLowerCase())) list = pseudo;
  });
  if (!list) return [selector];
  const found = list;
  const parent = found.parent;
  if (parent?.parent?.type === 'pseudo' && parent.parent.value.toLowerCase() === ':not') {
    // :not(:is(a, b)) is :not(a):not(b), each simple as an old engine's :not() needs.
    const not = parent.parent as Pseudo;
    const nots = found.nodes.map((item) => selectorParser.pseudo({ value: ':not', nodes: [item.clone() as Selector] }));
    nots.forEach((each) => not.parent?.insertBefore(not, each));
    not.remove();
    return expand(selector);
  }
  return found.nodes.flatMap((item) => {
    const copy = selector.clone();
    let target: Pseudo | undefined;
    copy.walkPseudos((pseudo) => {
      if (!target && anyOf.has(pseudo.value.toLowerCase())) target = pseudo;
    });
    const replacement = item.clone().nodes;
    replacement.forEach((node) => target?.parent?.insertBefore(target, node));
    target?.remove();
    return expand(copy);
  });
}

const expandAll = selectorParser((selectors) => {
  for (const selector of [...selectors.nodes]) {
    const expanded = expand(selector);
    expanded.forEach((each) => selectors.insertBefore(selector, each));
    if (!expanded.includes(selector)) selector.remove();
  }
});

/** The two-sided logical shorthands (Chromium 87, Safari 14.1), as their physical sides: the site
 * is written left to right only. Lightning CSS leaves those whose value holds a var(). */
const logicalSides: Record<string, [string, string]> = {
  'padding-inline': ['padding-left', 'padding-right'],
  'padding-block': ['padding-top', 'padding-bottom'],
  'margin-inline': ['margin-left', 'margin-right'],
  'margin-block': ['margin-top', 'margin-bottom'],
};

/** A value's words outside any parentheses (`calc(1px * 2) 3px` is two). */
function topLevelWords(value: string): string[] {
  const words: string[] = [];
  let depth = 0;
  let word = '';
  for (const char of value.trim()) {
    depth += char === '(' ? 1 : char === ')' ? -1 : 0;
    if (depth === 0 && /\s/.test(char)) {
      if (word) words.push(word);
      word = '';
    } else word += char;
  }
  if (word) words.push(word);
  return words;
}

/** A plain background under each gradient. The old engines drop Tailwind's gradients whole (their
 * `in oklab` and stops behind unregistered properties), which left the primary button white text
 * on nothing: its first stop, already rgb here, is painted instead. Stops the modern stylesheet
 * mixes with transparent are tints, whose fallback here is the full colour, too strong to lie
 * under text of that colour: those keep no background. */
function gradientFallbacks(root: Root): void {
  const stops: { rule: Rule; from: string }[] = [];
  root.walkRules((rule) => {
    rule.walkDecls('--tw-gradient-from', (declaration) => {
      stops.push({ rule, from: declaration.value });
    });
  });
  const tinted = new Set(stops.filter(({ from }) => /color-mix\(/i.test(from)).map(({ rule }) => rule.selector));
  for (const { rule, from } of stops) {
    if (tinted.has(rule.selector)) continue;
    rule.prepend({ prop: 'background-color', value: from });
  }
}

/** Tailwind's colour at an opacity (`bg-brand/15`): `color-mix(in oklab, var(--brand) 15%,
 * transparent)`, the variable's colour with that alpha. */
const tint = /^color-mix\(in [a-z]+,\s*var\((--[\w-]+)\)\s+(\d+(?:\.\d+)?)%,\s*transparent\)$/i;

/** A `#rgb` or `#rrggbb` colour as `r,g,b`, for rgba(); undefined for any other value. */
function rgbChannels(value: string): string | undefined {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim())?.[1];
  if (hex === undefined) return undefined;
  const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex;
  return [0, 2, 4].map((at) => parseInt(full.slice(at, at + 2), 16)).join(',');
}

/**
 * Tints for the engines without color-mix() (Chromium 111, Safari 16.2). Tailwind writes a colour
 * at an opacity as color-mix() behind @supports, after a fallback of the full colour: the pinned
 * strip's pale pill came out solid brand blue under its blue text. Before each such block goes
 * the same rule as rgba() of the colour's channels, `--brand-rgb` written beside each `--brand`
 * it mixes; engines with color-mix() still take the block after it. A colour variable that is not
 * a plain hex leaves its rgba() invalid, and the property is then unset (no background, the
 * parent's text colour) rather than the full colour. Gradient stops are gradientFallbacks' concern.
 */
function tintFallbacks(root: Root): void {
  const mixed = new Set<string>();
  root.walkAtRules('supports', (supports) => {
    if (!/color-mix\(/i.test(supports.params)) return;
    supports.each((node) => {
      if (node.type !== 'rule') return;
      const fallback = node.clone();
      fallback.removeAll();
      node.walkDecls((declaration) => {
        const [, name, percent] = tint.exec(declaration.value) ?? [];
        if (name === undefined || percent === undefined || declaration.prop.startsWith('--tw-gradient-')) return;
        mixed.add(name);
        fallback.append({ prop: declaration.prop, value: `rgba(var(${name}-rgb),${Number(percent) / 100})` });
      });
      if (fallback.nodes.length > 0) supports.before(fallback);
    });
  });
  root.walkDecls((declaration) => {
    const channels = mixed.has(declaration.prop) ? rgbChannels(declaration.value) : undefined;
    if (channels !== undefined) declaration.cloneAfter({ prop: `${declaration.prop}-rgb`, value: channels });
  });
}

/**
 * Rewrites for the oldest engines served what Lightning CSS leaves
 * (docs/site.md#the-oldest-browsers-served): :is() and :where() written out, 100dvh as
 * 100vh (the whole window, toolbars included), :focus-visible as :focus, the logical shorthands
 * as physical sides. And it leaves out what has no equivalent there
 * and only refines the design: rules behind :has() (the language picker's focus ring) and
 * container queries (a package hash in two even lines, which runs on as one wrapped line).
 * Gradients get a plain colour beneath (gradientFallbacks), and colours at an opacity an rgba()
 * (tintFallbacks).
 */
export const legacyRules: PostcssPlugin = {
  postcssPlugin: 'legacy-rules',
  OnceExit: (root) => {
    tintFallbacks(root);
    gradientFallbacks(root);
  },
  AtRule: {
    container: (rule) => {
      rule.remove();
    },
  },
  Rule: (rule) => {
    if (/:has\(/i.test(rule.selector)) {
      rule.remove();
      return;
    }
    if (/:(?:is|where|-webkit-any)\(/i.test(rule.selector)) rule.selector = expandAll.processSync(rule.selector);
    // Chromium 86 and Safari 15.4: before them, the focus ring for the mouse too.
    rule.selector = rule.selector.replace(/:focus-visible\b/g, ':focus');
  },
  Declaration: (declaration) => {
    const sides = logicalSides[declaration.prop];
    if (sides) {
      // padding-inline: a b is padding-left: a, padding-right: b; one value is both.
      const [first = '', second = first] = topLevelWords(declaration.value);
      declaration.cloneBefore({ prop: sides[0], value: first });
      declaration.cloneBefore({ prop: sides[1], value: second });
      declaration.remove();
      return;
    }
    if (/\d(?:d|s|l)v(?:h|w)\b/.test(declaration.value))
      declaration.value = declaration.value.replace(/(\d)(?:d|s|l)v([hw])\b/g, '$1v$2');
  },
};
