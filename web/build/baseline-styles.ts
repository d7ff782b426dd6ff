import postcss, { type AtRule, type ChildNode, type Node } from 'postcss';

/**
 * CSS the oldest engines served do not know (docs/site.md#the-oldest-browsers-served), each
 * with the engines it came in. An engine drops a rule or declaration it cannot read, so each is
 * allowed only where it has a fallback: inside `@supports`, or a declaration after another of the
 * same property in the same rule.
 */
const unknownAtRules: Record<string, string> = {
  layer: 'cascade layers (Chromium 99, Safari 15.4)',
  container: 'container queries (Chromium 105, Safari 16)',
  scope: '@scope (Chromium 118, Safari 17.4)',
  'starting-style': '@starting-style (Chromium 117, Safari 17.5)',
};
const unknownValues: [RegExp, string][] = [
  [/\bcolor-mix\(/, 'color-mix() (Chromium 111, Safari 16.2)'],
  [/\b(?:oklch|oklab|lab|lch)\(/, 'oklch(), lab() colours (Chromium 111, Safari 15)'],
  [/\b(?:min|max|clamp)\(/, 'min(), max(), clamp() (Chromium 79, Safari 11.1 for min/max, 13.1 for clamp)'],
  [/\d(?:dvh|svh|lvh|dvw|svw|lvw|cqw|cqh|cqi|cqb)\b/, 'viewport and container units (Chromium 108, Safari 15.4)'],
  [/\bfit-content\b|\binset:/, 'inset, fit-content (Chromium 87)'],
];
const unknownProperties: Record<string, string> = {
  'padding-inline': 'logical shorthands (Chromium 87, Safari 14.1)',
  'padding-block': 'logical shorthands (Chromium 87, Safari 14.1)',
  'margin-inline': 'logical shorthands (Chromium 87, Safari 14.1)',
  'margin-block': 'logical shorthands (Chromium 87, Safari 14.1)',
  inset: 'inset (Chromium 87, Safari 14.1)',
};
const unknownSelectors: [RegExp, string][] = [
  [/:(?:is|where|has)\(/, ':is(), :where(), :has() (Chromium 88, Safari 14)'],
  [/:focus-visible\b/, ':focus-visible (Chromium 86, Safari 15.4)'],
  [/(?:^|[\s,>+~])&/, 'nesting (Chromium 112, Safari 16.5)'],
];

/** What `css` holds that the baseline lacks with no fallback; nothing when it is fit for it. */
export function baselineStyleProblems(css: string): string[] {
  const problems: string[] = [];
  const note = (what: string, where: string) => problems.push(`${what}: ${where.slice(0, 120)}`);
  postcss.parse(css).walk((node: ChildNode) => {
    if (insideSupports(node)) return;
    if (node.type === 'atrule' && node.name in unknownAtRules)
      note(unknownAtRules[node.name] ?? '', `@${node.name} ${node.params}`);
    if (node.type === 'rule')
      for (const [pattern, what] of unknownSelectors) if (pattern.test(node.selector)) note(what, node.selector);
    if (node.type === 'decl' && node.prop in unknownProperties && !hasFallback(node))
      note(unknownProperties[node.prop] ?? '', `${node.prop}: ${node.value}`);
    if (node.type === 'decl' && !hasFallback(node))
      for (const [pattern, what] of unknownValues)
        if (pattern.test(node.value)) note(what, `${node.prop}: ${node.value}`);
  });
  return problems;
}

export function assertBaselineStyles(css: string): void {
  const problems = baselineStyleProblems(css);
  if (problems.length > 0)
    throw new Error(`the legacy stylesheet uses CSS the oldest browsers served lack:\n${problems.join('\n')}`);
}

function insideSupports(node: ChildNode): boolean {
  for (let parent: Node | undefined = node.parent; parent && parent.type !== 'root'; parent = parent.parent)
    if (parent.type === 'atrule' && (parent as AtRule).name === 'supports') return true;
  return false;
}

/** A declaration after another of the same property in its rule: an engine that cannot read it
 * keeps the one before. */
function hasFallback(node: ChildNode & { type: 'decl' }): boolean {
  let before = node.prev();
  while (before) {
    if (before.type === 'decl' && before.prop === node.prop) return true;
    before = before.prev();
  }
  return false;
}
