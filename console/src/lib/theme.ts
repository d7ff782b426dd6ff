import { useSyncExternalStore } from 'react';
import {
  applyTheme as applySiteTheme,
  resolvedTheme,
  saveTheme,
  storedTheme,
  type ResolvedTheme,
} from '../../../web/src/console-surface/theme';

/** The console's theme: the site's rule (web/src/features/theme), with its own stored choice,
 * light or dark, following the system until the operator picks one (docs/site.md#theme). */
export type ConsoleTheme = ResolvedTheme;
const listeners = new Set<() => void>();
/** Apart from the site's choice (docs/site.md#theme). */
const key = 'chat-site-console-theme';

export const currentTheme = (): ConsoleTheme => resolvedTheme(storedTheme(key, 'system'));

export function applyTheme(theme: ConsoleTheme = currentTheme()): void {
  applySiteTheme(theme);
}

export function setTheme(theme: ConsoleTheme): void {
  saveTheme(theme, key);
  for (const listener of listeners) listener();
}

export function useTheme(): ConsoleTheme {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, currentTheme);
}
