import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { paths } from '../../config/paths';
import { siteConfig } from '../../config/site-config';
import { t } from '../../lib/i18n';
import { ExternalLink } from '../ui/external-link';
import { Logo } from './logo';

const linkClass = 'text-sm text-muted transition-colors hover:text-fg';

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h2 className="mb-3 text-sm font-semibold text-fg">{title}</h2>
      <ul className="space-y-2">{children}</ul>
    </div>
  );
}

const Internal = ({ href, children }: { href: string; children: ReactNode }) => (
  <li>
    <Link href={href} className={linkClass}>
      {children}
    </Link>
  </li>
);

const External = ({ href, children }: { href: string; children: ReactNode }) => (
  <li>
    <ExternalLink href={href} className={linkClass}>
      {children}
    </ExternalLink>
  </li>
);

/** `themeSwitcher` comes from the app: layout draws no feature of its own. */
export function Footer({ themeSwitcher }: { themeSwitcher: ReactNode }) {
  return (
    <footer className="mt-16 border-t border-line bg-surface/40">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 md:grid-cols-[1.2fr_repeat(4,1fr)] md:px-6">
        <div className="space-y-4">
          <Link href={paths.home} className="inline-flex items-center gap-2 rounded-md text-lg font-semibold">
            <Logo />
            <span>{siteConfig.productName}</span>
          </Link>
          <p className="text-sm text-muted">{t('hero.tagline')}</p>
          {themeSwitcher}
        </div>
        <div className="grid grid-cols-2 gap-8 sm:grid-cols-4 md:contents">
          <Column title={t('footer.mobile')}>
            <Internal href={paths.download}>iOS</Internal>
            <Internal href={paths.download}>Android</Internal>
          </Column>
          <Column title={t('footer.desktop')}>
            <Internal href={paths.download}>Windows</Internal>
            <Internal href={paths.download}>Mac</Internal>
            <External href={siteConfig.webClientUrl}>{t('footer.web')}</External>
          </Column>
          <Column title={t('footer.support')}>
            <External href={siteConfig.agreementUrl}>{t('footer.agreement')}</External>
            <External href={siteConfig.privacyUrl}>{t('footer.privacy')}</External>
            <Internal href={paths.downloadHelp}>{t('footer.tutorial')}</Internal>
            <Internal href={paths.changelog}>{t('nav.changelog')}</Internal>
          </Column>
          <Column title={t('footer.contact')}>
            {siteConfig.contact.map((entry) =>
              entry.url.startsWith('mailto:') ? (
                <li key={entry.url}>
                  <a href={entry.url} className={linkClass}>
                    {entry.label}
                  </a>
                </li>
              ) : (
                <External key={entry.url} href={entry.url}>
                  {entry.label}
                </External>
              ),
            )}
          </Column>
        </div>
      </div>
      <p className="border-t border-line/60 py-5 text-center text-xs text-muted">
        {t('footer.copyright', { product: siteConfig.productName })}
      </p>
    </footer>
  );
}
