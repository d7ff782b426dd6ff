import { isPrimaryHost, siteConfig } from '../../../config/site-config';
import { ExternalLink } from '../../../components/ui/external-link';
import { t } from '../../../lib/i18n';
import { StaleNote } from '../../offline/stale-note';
import { packageFor, useDownloadLinks } from '../use-download-links';
import { DownloadCard, type CardLink } from './download-card';
import type { Platform } from './platform-icon';

export const appStoreUrl = (appId: string) => `https://apps.apple.com/app/id${appId}`;

/** SPEC.md's host rule: the primary domain offers the fixed APK only; other hosts offer all
 * four, with Android preferring the edge service's URL when it answered. */
function cardLinks(primary: boolean, links: ReturnType<typeof useDownloadLinks>): [Platform, CardLink][] {
  if (primary) return [['android', { href: siteConfig.androidApkUrl, newTab: false }]];
  const android: CardLink =
    links.edgeUrl !== undefined
      ? { href: links.edgeUrl, newTab: true }
      : { href: packageFor(links.packages, 'android'), newTab: false };
  return [
    ['android', android],
    ['ios', { href: appStoreUrl(siteConfig.iosAppStoreId), newTab: true }],
    ['windows', { href: packageFor(links.packages, 'windows'), newTab: false }],
    ['mac', { href: packageFor(links.packages, 'mac'), newTab: false }],
  ];
}

export function DownloadSection() {
  const primary = isPrimaryHost();
  const links = useDownloadLinks({ edge: !primary });
  const cards = cardLinks(primary, links);
  return (
    <section className="mx-auto max-w-6xl px-4 py-12 md:px-6 md:py-20">
      <div className="mx-auto max-w-2xl text-center">
        <h1 className="text-3xl font-bold md:text-4xl">{t('download.title', { product: siteConfig.productName })}</h1>
        <p className="mt-3 text-lg text-muted">{t('download.subtitle')}</p>
        <p className="mt-2 text-sm text-muted">
          {t('download.termsPrefix')}
          <ExternalLink href={siteConfig.agreementUrl} className="text-brand hover:underline">
            {t('download.agreement')}
          </ExternalLink>
          {t('download.termsAnd')}
          <ExternalLink href={siteConfig.privacyUrl} className="text-brand hover:underline">
            {t('download.privacy')}
          </ExternalLink>
        </p>
      </div>
      <StaleNote data={links.packages} className="mx-auto mt-6 max-w-xl text-center" />
      <ul
        className={`mx-auto mt-10 grid gap-4 md:gap-6 ${cards.length === 1 ? 'max-w-sm' : 'sm:grid-cols-2 lg:grid-cols-4'}`}
      >
        {cards.map(([platform, link]) => (
          <DownloadCard key={platform} platform={platform} link={link} />
        ))}
      </ul>
    </section>
  );
}
