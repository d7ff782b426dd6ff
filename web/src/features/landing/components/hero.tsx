import { paths, hashHref } from '../../../config/paths';
import { siteConfig } from '../../../config/site-config';
import { Logo } from '../../../components/layout/logo';
import { buttonClass } from '../../../components/ui/button';
import { t } from '../../../lib/i18n';
import { featuresSectionId } from './feature-grid';

export function Hero() {
  return (
    <section className="relative overflow-hidden">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 -top-40 mx-auto h-96 max-w-3xl rounded-full bg-gradient-to-r from-brand/30 to-brand-2/30 blur-3xl"
      />
      <div className="relative mx-auto flex max-w-3xl flex-col items-center px-4 pt-14 pb-10 text-center md:pt-24 md:pb-14">
        <Logo size="hero" decorative className="drop-shadow-xl" />
        <h1 className="mt-6 text-4xl font-bold tracking-tight md:text-6xl">{siteConfig.productName}</h1>
        <p className="mt-4 text-lg text-muted md:text-xl">{t('hero.tagline')}</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <a href={hashHref(paths.download)} className={buttonClass({ size: 'lg' })}>
            {t('hero.download')}
          </a>
          <a
            href={`#${featuresSectionId}`}
            onClick={(event) => {
              event.preventDefault();
              document.getElementById(featuresSectionId)?.scrollIntoView({ behavior: 'smooth' });
            }}
            className={buttonClass({ variant: 'secondary', size: 'lg' })}
          >
            {t('hero.features')}
          </a>
        </div>
      </div>
    </section>
  );
}
