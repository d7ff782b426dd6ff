import { readString, storageKeys, writeString } from '../../lib/storage';

export const themes = ['light', 'dark', 'system'] as const;
export type Theme = (typeof themes)[number];
/** What a page is drawn in: `system` is one of these, by the operating system's preference. */
export type ResolvedTheme = Exclude<Theme, 'system'>;
const defaultTheme: Theme = 'dark';

/** The stored choice under `key`, or `fallback` when there is none (or storage is refused). The
 * operator console keeps its own choice under a key of its own, so an operator's console and the
 * site they check can differ (docs/site.md#theme). */
export function storedTheme(key: string = storageKeys.theme, fallback: Theme = defaultTheme): Theme {
  const value = readString(key);
  return themes.find((theme) => theme === value) || fallback;
}

const systemDark = () => window.matchMedia('(prefers-color-scheme: dark)').matches;

export const resolvedTheme = (theme: Theme): ResolvedTheme =>
  theme === 'dark' || (theme === 'system' && systemDark()) ? 'dark' : 'light';

/** Puts `light` or `dark` on the page root; `system` follows the operating system. */
export function applyTheme(theme: Theme): void {
  const dark = resolvedTheme(theme) === 'dark';
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.classList.toggle('light', !dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
}

export function saveTheme(theme: Theme, key: string = storageKeys.theme): void {
  writeString(key, theme);
  applyTheme(theme);
}
