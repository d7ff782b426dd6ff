import logoUrl from '../../assets/illustrations/logo.svg';
import { siteConfig } from '../../config/site-config';
import { cn } from '../../lib/cn';
import { t } from '../../lib/i18n';

export function Logo({ className }: { className?: string }) {
  return (
    <img
      src={logoUrl}
      width={64}
      height={64}
      alt={t('a11y.logo', { product: siteConfig.productName })}
      className={cn('size-8', className)}
    />
  );
}
