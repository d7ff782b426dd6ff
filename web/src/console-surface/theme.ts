/**
 * The site's theme rule, which the console applies too with a choice of its own
 * (console/src/lib/theme.ts, docs/site.md#theme): one module decides what light, dark and
 * system mean and how the page root shows them.
 */
export {
  applyTheme,
  resolvedTheme,
  saveTheme,
  storedTheme,
  type ResolvedTheme,
  type Theme,
} from '../features/theme/theme';
