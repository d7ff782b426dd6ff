import { Fragment, useEffect, type ReactNode } from 'react';
import { Link } from 'wouter';
import { paths } from '../../config/paths';
import { siteConfig } from '../../config/site-config';
import { t } from '../../lib/i18n';
import { buttonClass } from '../ui/button';
import { ExternalLink } from '../ui/external-link';
import { Logo } from './logo';
import { SkipLink } from './skip-link';
import { primaryHostOnlyMark } from '../../lib/page-marks';

const linkClass = 'rounded-md text-sm text-muted transition-colors hover:text-fg md:px-3 md:py-2 md:text-[15px]';

/** `languageSwitcher` comes from the app: layout draws no feature of its own. */
export function Header({ languageSwitcher }: { languageSwitcher: ReactNode }) {
  // Every render of the header brings the page back to the top
  // (docs/site.md#screens-and-routes). In the next frame, before its paint: scrolling lays
  // the page out, which that frame does anyway, whereas here, among the render's other effects, it
  // would lay out a page they go on to change.
  useEffect(() => {
    const frame = requestAnimationFrame(() => window.scrollTo(0, 0));
    return () => cancelAnimationFrame(frame);
  });
  // The member centre is for the primary domain only (docs/public-api.md#host-rules). It is always
  // in the page, the prerendered one too, and shown where the server marked the page as served on
  // that domain (server/src/page/primary-host.ts, web/src/styles.css): in the first paint, never
  // arriving late.
  const links = [
    <Link key="announcements" href={paths.announcements} className={linkClass}>
      {t('nav.announcements')}
    </Link>,
    <Link key="download" href={paths.download} className={linkClass}>
      {t('nav.download')}
    </Link>,
    <ExternalLink key="member" href={siteConfig.memberCentreUrl} className={linkClass} {...primaryHostOnlyMark}>
      {t('nav.memberCentre')}
    </ExternalLink>,
  ];
  return (
    <header className="sticky top-0 z-40 border-b border-line/70 bg-bg/85 backdrop-blur-md">
      <SkipLink />
      <div className="mx-auto flex h-14 max-w-6xl items-center justify-between gap-3 px-4 md:h-16 md:px-6">
        <Link
          href={paths.home}
          className="flex shrink-0 items-center gap-2 rounded-md text-base font-semibold md:text-lg"
        >
          <Logo size="header" />
          <span>{siteConfig.productName}</span>
        </Link>
        <nav aria-label={t('nav.label')} className="flex items-center gap-2 md:gap-1">
          {links.map((link, index) => (
            <Fragment key={link.key}>
              {index > 0 && (
                <span
                  aria-hidden="true"
                  className="text-xs text-line md:hidden"
                  {...(link.key === 'member' ? primaryHostOnlyMark : {})}
                >
                  |
                </span>
              )}
              {link}
            </Fragment>
          ))}
          {languageSwitcher}
          <span className="ms-3 hidden md:block">
            <ExternalLink href={siteConfig.webClientUrl} className={buttonClass({ size: 'sm' })}>
              {t('nav.webClient')}
            </ExternalLink>
          </span>
        </nav>
      </div>
    </header>
  );
}
