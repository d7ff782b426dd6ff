import { ExternalLink } from '../../../components/ui/external-link';
import { buttonClass } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { t } from '../../../lib/i18n';
import type { Platform } from '../../../lib/platform';
import { downloadKindOf, type Card } from '../cards';
import { PackageDetails, PackageDetailsPlaceholder } from './package-details';
import { PlatformIcon } from './platform-icon';
import { downloadKindMark, fieldMark, platformMark } from '../../../lib/page-marks';
import { storeName, useDownloadText } from '../messages';

export const platformNames: Record<Platform, string> = {
  android: 'Android',
  ios: 'iOS',
  windows: 'Windows',
  mac: 'Mac',
  harmonyos: 'HarmonyOS NEXT',
};

export interface DownloadCardProps extends Card {
  /** The package list is still on its way: the card keeps the place its facts will take. */
  loading?: boolean | undefined;
}

/** The card's frame: the recommended card stands out (brand border, ring, large shadow), the
 * others stay quiet. Each state names its own border colour and shadow, so neither has to win
 * over the other in the CSS (see lib/cn.ts). */
export const cardClass = (recommended: boolean) =>
  cn(
    'relative flex flex-col items-center rounded-3xl border bg-surface p-6 text-center transition',
    recommended
      ? 'border-brand shadow-lg ring-2 shadow-brand/10 ring-brand/40'
      : 'border-line shadow-sm hover:border-brand/50',
  );

export function DownloadCard({ platform, link, details, standing, stores, loading = false }: DownloadCardProps) {
  const text = useDownloadText();
  const name = platformNames[platform];
  const label = `${t('download.button')} ${name}`;
  const recommended = standing === 'recommended';
  const buttonStyle = standing === 'other' ? ({ variant: 'secondary' } as const) : {};
  return (
    <li {...platformMark(platform)} data-recommended={recommended || undefined} className={cardClass(recommended)}>
      {recommended && (
        <span className="absolute -top-3 rounded-full bg-gradient-to-r from-brand to-brand-2 px-3 py-0.5 text-xs font-semibold text-brand-fg">
          {t('download.recommended')}
        </span>
      )}
      <span className="grid size-16 place-items-center rounded-2xl bg-gradient-to-br from-brand/20 to-brand-2/20 text-brand">
        <PlatformIcon platform={platform} size="xl" />
      </span>
      <h2 className="mt-4 text-lg font-semibold">{name}</h2>
      <p {...fieldMark('min-os')} className="mt-1 text-sm text-muted">
        {platform === 'harmonyos'
          ? text.harmonyosStore
          : details?.minOs === undefined
            ? t(`download.${platform}`)
            : t('download.minOs', { minOs: details.minOs })}
      </p>
      {link.href === undefined ? (
        <span
          aria-disabled="true"
          className={buttonClass({ variant: 'secondary' }, 'mt-6 w-full cursor-not-allowed opacity-50')}
        >
          {t('download.button')}
        </span>
      ) : link.newTab ? (
        <ExternalLink
          href={link.href}
          aria-label={label}
          {...fieldMark('button')}
          {...downloadKindMark(downloadKindOf(platform))}
          className={buttonClass(buttonStyle, 'mt-6 w-full')}
        >
          {t('download.button')}
        </ExternalLink>
      ) : (
        <a
          href={link.href}
          aria-label={label}
          {...fieldMark('button')}
          {...downloadKindMark(downloadKindOf(platform))}
          className={buttonClass(buttonStyle, 'mt-6 w-full')}
        >
          {t('download.button')}
        </a>
      )}
      {stores !== undefined && (
        <nav aria-label={text.stores} className="mt-3 w-full">
          <ul className="flex flex-wrap justify-center gap-2">
            {stores.map(({ store, href }) => (
              <li key={store}>
                <ExternalLink
                  href={href}
                  className="inline-block rounded-full border border-line px-3 py-1 text-xs text-muted transition-colors hover:border-brand/50 hover:text-fg"
                >
                  {storeName(store)}
                </ExternalLink>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {details !== undefined ? (
        <PackageDetails entry={details} name={name} />
      ) : (
        loading && <PackageDetailsPlaceholder platform={platform} />
      )}
    </li>
  );
}
