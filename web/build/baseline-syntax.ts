import { parse, tokTypes } from 'acorn';

/**
 * The newest syntax every baseline engine parses (docs/site.md#the-oldest-browsers-served):
 * ES2019. Optional chaining, `??`, class fields and the like came after Chromium 74 and Safari 12.
 */
const baselineEcmaVersion = 2019;

/** Modules load one another with `import()` and read `import.meta`, both ES2020 but both in the
 * baseline engines (Chromium 63 and 64, Safari 11.1 and 12): read as plain calls and names. */
const moduleSyntax = (code: string) =>
  code.replace(/\bimport\s*\(/g, '__import(').replace(/\bimport\.meta\b/g, '__meta');

/** A lookbehind, `(?<=` or `(?<!`: ES2018, which acorn's ES2019 accepts, but Safari parses it
 * only from 16.4, and refuses the whole script before. */
const lookbehind = /\(\?<[=!]/;

/** Fails the build when `code`, compiled for the baseline, still holds syntax past it: an old
 * engine would refuse the whole script. */
export function assertBaselineSyntax(code: string, name: string, sourceType: 'script' | 'module'): void {
  const source = sourceType === 'module' ? moduleSyntax(code) : code;
  const patterns: string[] = [];
  try {
    parse(source, {
      ecmaVersion: baselineEcmaVersion,
      sourceType,
      onToken: (token) => {
        if (token.type === tokTypes.regexp) patterns.push(source.slice(token.start, token.end));
      },
    });
  } catch (error) {
    throw new Error(`${name} has syntax the oldest browsers served cannot parse: ${String(error)}`, {
      cause: error,
    });
  }
  const behind = patterns.find((pattern) => lookbehind.test(pattern));
  if (behind !== undefined)
    throw new Error(
      `${name} has a regular expression with a lookbehind, which Safari before 16.4 cannot parse: ${behind}`,
    );
}
