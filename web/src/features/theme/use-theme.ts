import { useCallback, useEffect, useState } from 'react';
import { applyTheme, saveTheme, storedTheme, type Theme } from './theme';

export function useTheme(): [Theme, (theme: Theme) => void] {
  const [theme, setTheme] = useState<Theme>(storedTheme);
  useEffect(() => {
    applyTheme(theme);
    if (theme !== 'system') return;
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const follow = () => applyTheme('system');
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, [theme]);
  const choose = useCallback((next: Theme) => {
    saveTheme(next);
    setTheme(next);
  }, []);
  return [theme, choose];
}
