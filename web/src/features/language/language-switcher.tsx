import { Icon } from '../../components/ui/icon';
import { cn } from '../../lib/cn';
import { dropLanguageFromUrl, languages, setLanguage, t, useLanguage, type Language } from '../../lib/i18n';

const globe =
  'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18ZM3 12h18M12 3c2.4 2.6 3.6 5.6 3.6 9s-1.2 6.4-3.6 9c-2.4-2.6-3.6-5.6-3.6-9S9.6 5.6 12 3Z';

/**
 * A real <select>, so keyboards, screen readers and phones get their native picker. It lies
 * transparent over a globe (and, from 768 px, the language's name), which keeps the phone header
 * narrow. Each language is named in itself, so a visitor lost in a foreign one finds their own.
 */
export function LanguageSwitcher({ className }: { className?: string }) {
  const language = useLanguage();
  return (
    <span
      className={cn(
        'relative inline-flex h-9 items-center gap-1.5 rounded-full border border-line px-2 text-sm text-muted transition-colors hover:text-fg md:px-3',
        'has-[select:focus-visible]:outline-2 has-[select:focus-visible]:outline-offset-2 has-[select:focus-visible]:outline-ring',
        className,
      )}
    >
      <Icon path={globe} size="md" strokeWidth={1.6} />
      <span aria-hidden="true" className="hidden whitespace-nowrap md:inline">
        {t(`language.${language}`)}
      </span>
      <select
        aria-label={t('language.label')}
        value={language}
        onChange={(event) => {
          dropLanguageFromUrl();
          void setLanguage(event.target.value as Language, { remember: true });
        }}
        className="absolute inset-0 size-full cursor-pointer appearance-none opacity-0"
      >
        {languages.map((option) => (
          <option key={option} value={option} lang={option}>
            {t(`language.${option}`)}
          </option>
        ))}
      </select>
    </span>
  );
}
