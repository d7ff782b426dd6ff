import { ExternalLink } from '../../../components/ui/external-link';
import { buttonClass } from '../../../components/ui/button';
import { t } from '../../../lib/i18n';
import { PlatformIcon, type Platform } from './platform-icon';

export interface CardLink {
  href: string | undefined;
  /** Opens in a new tab (store pages, the edge service's URL) rather than downloading here. */
  newTab: boolean;
}

const names: Record<Platform, string> = { android: 'Android', ios: 'iOS', windows: 'Windows', mac: 'Mac' };

export function DownloadCard({ platform, link }: { platform: Platform; link: CardLink }) {
  const label = `${t('download.button')} ${names[platform]}`;
  return (
    <li className="flex flex-col items-center rounded-3xl border border-line bg-surface p-6 text-center shadow-sm transition hover:border-brand/50">
      <span className="grid size-16 place-items-center rounded-2xl bg-gradient-to-br from-brand/20 to-brand-2/20 text-brand">
        <PlatformIcon platform={platform} className="size-8" />
      </span>
      <h2 className="mt-4 text-lg font-semibold">{names[platform]}</h2>
      <p className="mt-1 text-sm text-muted">{t(`download.${platform}`)}</p>
      {link.href === undefined ? (
        <span
          aria-disabled="true"
          className={buttonClass({ variant: 'secondary' }, 'mt-6 w-full cursor-not-allowed opacity-50')}
        >
          {t('download.button')}
        </span>
      ) : link.newTab ? (
        <ExternalLink href={link.href} aria-label={label} className={buttonClass({}, 'mt-6 w-full')}>
          {t('download.button')}
        </ExternalLink>
      ) : (
        <a href={link.href} aria-label={label} className={buttonClass({}, 'mt-6 w-full')}>
          {t('download.button')}
        </a>
      )}
    </li>
  );
}
