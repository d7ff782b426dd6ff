import { useSyncExternalStore } from 'react';

/** The console's own theme, kept apart from the public site's choice: light or dark, following
 * the system until the operator picks one. */
export type ConsoleTheme = 'light' | 'dark';
const key = 'chat-site-console-theme';
const listeners = new Set<() => void>();

function systemTheme(): ConsoleTheme {
  return window.matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
}

export function currentTheme(): ConsoleTheme {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(key);
  } catch {
    // Storage refused (a locked-down browser): the system's theme, for this visit.
  }
  return stored === 'light' || stored === 'dark' ? stored : systemTheme();
}

export function applyTheme(theme: ConsoleTheme = currentTheme()): void {
  const root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.classList.toggle('light', theme === 'light');
  root.style.colorScheme = theme;
}

export function setTheme(theme: ConsoleTheme): void {
  try {
    localStorage.setItem(key, theme);
  } catch {
    // Not kept; it still applies now.
  }
  applyTheme(theme);
  for (const listener of listeners) listener();
}

export function useTheme(): ConsoleTheme {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, currentTheme);
}
