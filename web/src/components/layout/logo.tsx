import logoUrl from '../../assets/illustrations/logo.svg';
import { siteConfig } from '../../config/site-config';
import { cn } from '../../lib/cn';
import { t } from '../../lib/i18n';

/** The product's logo; `loading="lazy"` where it starts below the first screen (the footer). */
export function Logo({ className, loading }: { className?: string; loading?: 'lazy' }) {
  return (
    <img
      src={logoUrl}
      width={64}
      height={64}
      loading={loading}
      alt={t('a11y.logo', { product: siteConfig.productName })}
      className={cn('size-8', className)}
    />
  );
}
