import { t } from '../../lib/i18n';
import { cn } from '../../lib/cn';
import { themes } from './theme';
import { useTheme } from './use-theme';
import { ThemeIcon } from './theme-icon';

/** One of the three buttons: the chosen one raised and in the text colour, the others muted. */
export const themeOptionClass = (chosen: boolean) =>
  cn(
    'grid size-8 place-items-center rounded-full transition-colors',
    chosen ? 'bg-surface-2 text-fg shadow-sm' : 'text-muted hover:text-fg',
  );

/** Light, dark or system, as a group of three radio buttons. */
export function ThemeSwitcher({ className }: { className?: string }) {
  const [theme, setTheme] = useTheme();
  return (
    <div
      role="radiogroup"
      aria-label={t('theme.label')}
      className={cn('inline-flex rounded-full border border-line p-0.5', className)}
    >
      {themes.map((option) => (
        <button
          key={option}
          type="button"
          role="radio"
          aria-checked={theme === option}
          aria-label={t(`theme.${option}`)}
          title={t(`theme.${option}`)}
          onClick={() => setTheme(option)}
          className={themeOptionClass(theme === option)}
        >
          <ThemeIcon theme={option} />
        </button>
      ))}
    </div>
  );
}
