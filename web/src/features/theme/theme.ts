import { readString, storageKeys, writeString } from '../../lib/storage';

export const themes = ['light', 'dark', 'system'] as const;
export type Theme = (typeof themes)[number];
const defaultTheme: Theme = 'dark';

export function storedTheme(): Theme {
  const value = readString(storageKeys.theme);
  return themes.find((theme) => theme === value) ?? defaultTheme;
}

const systemDark = () => window.matchMedia('(prefers-color-scheme: dark)').matches;

/** Puts `light` or `dark` on the page root; `system` follows the operating system. */
export function applyTheme(theme: Theme): void {
  const dark = theme === 'dark' || (theme === 'system' && systemDark());
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.classList.toggle('light', !dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
}

export function saveTheme(theme: Theme): void {
  writeString(storageKeys.theme, theme);
  applyTheme(theme);
}
