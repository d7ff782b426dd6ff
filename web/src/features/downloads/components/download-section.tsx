import { lazy, Suspense, useState } from 'react';
import { Link } from 'wouter';
import { paths } from '../../../config/paths';
import { isPrimaryHost, siteConfig } from '../../../config/site-config';
import { ExternalLink } from '../../../components/ui/external-link';
import { useHydrated } from '../../../lib/hydrated';
import { t } from '../../../lib/i18n';
import { detectPlatform, isDesktop, readDeviceSignals, type Platform } from '../../../lib/platform';
import { StaleNote } from '../../../components/ui/stale-note';
import { readSiteStores } from '../../../config/site-stores';
import { cards, ranked } from '../cards';
import { useDownloadText } from '../messages';
import { useDownloadLinks } from '../use-download-links';
import { InAppGuide } from '../in-app-guide/in-app-guide';
import { DownloadCard } from './download-card';
import { qrBoxClass } from './qr-box';

// The QR code and its encoder load only for desktop visitors, after the cards.
const DownloadQr = lazy(() => import('./download-qr'));

/** Links inside a sentence are underlined, not told apart by their colour alone. */
const inTextLink = 'text-brand-ink underline underline-offset-2 hover:text-fg';

/** The QR code leads a phone to this same screen, which then recommends the phone's own card. */
const mobileDownloadUrl = () => `${window.location.origin}${window.location.pathname}#/download`;

export function DownloadSection({ requested }: { requested?: Platform | undefined }) {
  const primary = isPrimaryHost();
  const links = useDownloadLinks({ edge: !primary });
  const [device] = useState(readDeviceSignals);
  const [pages] = useState(readSiteStores);
  // The prerendered first frame knows no device, so it shows no QR code.
  const hydrated = useHydrated();
  const platform = requested ?? detectPlatform(device);
  const list = ranked(cards(primary, links, { pages, userAgent: device.userAgent }), platform);
  return (
    <section className="mx-auto max-w-6xl px-4 py-12 md:px-6 md:py-20">
      <div className="mx-auto max-w-2xl text-center">
        <h1 className="text-3xl font-bold md:text-4xl">{t('download.title', { product: siteConfig.productName })}</h1>
        <p className="mt-3 text-lg text-muted">{t('download.subtitle')}</p>
        <p className="mt-2 text-sm text-muted">
          {t('download.termsPrefix')}
          <ExternalLink href={siteConfig.agreementUrl} className={inTextLink}>
            {t('download.agreement')}
          </ExternalLink>
          {t('download.termsAnd')}
          <ExternalLink href={siteConfig.privacyUrl} className={inTextLink}>
            {t('download.privacy')}
          </ExternalLink>
        </p>
      </div>
      {platform === 'harmonyos' && pages.harmonyos === undefined && <HarmonyMissing />}
      <ul
        className={`mx-auto mt-10 grid items-start gap-4 md:gap-6 ${list.length === 1 ? 'max-w-sm' : list.length === 2 ? 'max-w-2xl sm:grid-cols-2' : 'sm:grid-cols-2 lg:grid-cols-4'}`}
      >
        {list.map((card) => (
          <DownloadCard key={card.platform} {...card} loading={links.loading} />
        ))}
      </ul>
      {/* Under the cards, not over them: a note that arrives late moves nothing the visitor
          already sees. */}
      <StaleNote data={links.packages} className="mx-auto mt-6 max-w-xl text-center" />
      <p className="mt-6 text-center text-sm">
        <Link href={paths.changelog} className={inTextLink}>
          {t('nav.changelog')}
        </Link>
      </p>
      {hydrated && isDesktop(device) && (
        <Suspense fallback={<div className={`${qrBoxClass} invisible`} aria-hidden="true" />}>
          <DownloadQr url={mobileDownloadUrl()} />
        </Suspense>
      )}
      <InAppGuide />
    </section>
  );
}

/** HarmonyOS NEXT installs no APK, and the app is not in AppGallery yet: the visitor is told so
 * and offered the web version rather than a download that cannot install
 * (docs/site.md#harmonyos-next). */
function HarmonyMissing() {
  const text = useDownloadText();
  return (
    <p role="note" className="mx-auto mt-8 max-w-xl rounded-2xl border border-line bg-surface p-4 text-center text-sm">
      {text.harmonyosMissing.replace('{product}', () => siteConfig.productName)}{' '}
      <ExternalLink href={siteConfig.webClientUrl} className={inTextLink}>
        {text.web}
      </ExternalLink>
    </p>
  );
}
